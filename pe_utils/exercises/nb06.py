"""Exercises of notebook 06, positions inside attention.

``‖PE(p)‖ = √(d/2)`` for every ``p``; a token vector ``x`` drawn from
``N(0, σ²)`` has ``‖x‖ ≈ σ√d``. When ``x`` is (nearly) orthogonal to
``PE(p)``, the angle ``θ`` between ``x`` and ``x + PE(p)`` has
``tan θ = ‖PE(p)‖ / ‖x‖``. Usage::

    from pe_utils.exercises import nb06
    answer = ...
    nb06.pe_norm.check(answer)
"""

from __future__ import annotations

import math

from . import Exercise

# --- 1. the norm of PE(p) ------------------------------------------------------

NORM_D = 128
NORM_P = 1000

pe_norm = Exercise(
    question=(
        f"For d = {NORM_D}, what is the length ‖PE(p)‖ of the encoding of position p = {NORM_P}? "
        "Give a whole number."
    ),
    expected=math.sqrt(NORM_D / 2),
    hint=(
        "Each pair contributes sin²(pω_i) + cos²(pω_i) = 1, and there are d/2 pairs. "
        "The length is the square root of the sum of squares."
    ),
    solution=(
        f"d = {NORM_D}\n"
        "answer = np.sqrt(d / 2)      # d/2 pairs, each of squared length 1; p does not matter\n"
        f"# check: np.linalg.norm(pe_utils.encode_positions([{NORM_P}], d))"
    ),
    mistakes=[
        (NORM_D / 2, "That is ‖PE(p)‖², the squared length. Take the square root."),
        (
            math.sqrt(NORM_D),
            "That is √d, the length of a vector with d entries of size 1. PE(p) has d/2 pairs "
            "(sin, cos), each of length 1, so ‖PE(p)‖² = d/2.",
        ),
        (float(NORM_D), "That is d, the number of entries. ‖PE(p)‖² = d/2, so ‖PE(p)‖ = √(d/2)."),
    ],
)

# --- 2. the angle after the paper's √d scaling --------------------------------

ANGLE_D = 512


def _angle_degrees(token_norm: float, d_model: int) -> float:
    """θ with tan θ = ‖PE‖/‖x‖, in degrees, for x orthogonal to PE."""
    return math.degrees(math.atan2(math.sqrt(d_model / 2), token_norm))


angle_after_scaling = Exercise(
    question=(
        f"d = {ANGLE_D}. A token vector x was initialised from N(0, 1/d), so ‖x‖ ≈ 1. The paper "
        "multiplies embeddings by √d before adding PE(p). Assuming √d·x is orthogonal to PE(p), "
        "what is the angle, in degrees, between √d·x and √d·x + PE(p)? Give it to 1 decimal."
    ),
    expected=_angle_degrees(math.sqrt(ANGLE_D), ANGLE_D),
    hint=(
        "Draw the right triangle with legs √d·x and PE(p): tan θ = ‖PE(p)‖ / ‖√d·x‖ "
        "= √(d/2) / √d. Convert radians to degrees at the end."
    ),
    solution=(
        f"d = {ANGLE_D}\n"
        "token_norm = np.sqrt(d) * 1.0       # ‖√d·x‖ with ‖x‖ ≈ 1\n"
        "pe_norm = np.sqrt(d / 2)\n"
        "answer = np.degrees(np.arctan(pe_norm / token_norm))   # = arctan(1/√2) ≈ 35.26°, for every d"
    ),
    mistakes=[
        (
            _angle_degrees(1.0, ANGLE_D),
            "That is the angle without the √d scaling (‖x‖ ≈ 1): PE(p) would dominate the sum.",
        ),
        (
            math.atan2(math.sqrt(ANGLE_D / 2), math.sqrt(ANGLE_D)),
            "That is the right angle in radians. The question asks for degrees.",
        ),
        (
            90.0 - _angle_degrees(math.sqrt(ANGLE_D), ANGLE_D),
            "That is the angle between PE(p) and the sum. tan θ = ‖PE(p)‖/‖√d·x‖ gives the angle "
            "between √d·x and the sum.",
        ),
        (
            _angle_degrees(math.sqrt(ANGLE_D), 2 * ANGLE_D),
            "You used ‖PE(p)‖ = √d. It is √(d/2): d/2 pairs, each of length 1.",
        ),
    ],
    decimals=1,  # notebook 06 prints the angle as 35.3°
)

# --- 3. which output changes least ---------------------------------------------

CHANGED_WORDS = ("one", "two", "three", "four", "five", "six")

changed_tokens = Exercise(
    question=(
        "The six words 'one two three four five six', token_embeddings(words, 8), PE added, "
        "and the course's fixed_weights(8). You swap the words at positions 1 and 4 "
        "(the encodings stay where they are) and compare each word's output with its own output "
        "before the swap, by the length of the difference. Section 1 found that every output "
        "changes. Which word's output changes least? Answer with the word, in quotes."
    ),
    expected="one",
    hint=(
        "Compute both outputs with self_attention, then put the old outputs in the new order: "
        "the word now at position r sat at position order[r] before. The lengths of the row "
        "differences give one number per word; take the word of the smallest."
    ),
    solution=(
        "words6 = 'one two three four five six'.split()\n"
        "weights6 = fixed_weights(8)\n"
        "inputs6 = token_embeddings(words6, 8)\n"
        "table6 = sinusoidal_pe(6, 8)\n"
        "order6 = [0, 4, 2, 3, 1, 5]          # positions 1 and 4 exchanged\n"
        "before6 = self_attention(inputs6 + table6, *weights6)\n"
        "after6 = self_attention(inputs6[order6] + table6, *weights6)\n"
        "# the word now at position r had its old output in row order6[r]\n"
        "moved6 = np.linalg.norm(after6 - before6[order6], axis=1)\n"
        "answer = words6[order6[int(np.argmin(moved6))]]   # 'one', at position 0: it changes by 0.16"
    ),
    mistakes=[
        (
            "two",
            "'two' moved from position 1 to 4: its own encoding changed, and it changes among the "
            "most. Look at the words that stayed.",
        ),
        (
            "five",
            "'five' moved from position 4 to 1: its own encoding changed, and it changes most. "
            "Look at the words that stayed.",
        ),
    ],
    choices=CHANGED_WORDS,
)

# --- 4. checkpoint of section 1: what moved that should have stayed -------------

# Other ways to say "the encodings", accepted as that word.
ENCODING_SYNONYMS = (
    "encoding",
    "the encodings",
    "the encoding",
    "pe",
    "pe(p)",
    "positions",
    "the positions",
    "positional encodings",
    "positional encoding",
    "position",
    "encodings",
)


moved_encodings = Exercise(
    question=(
        "A colleague computes Y = attend(X_a + PE) and Y_swapped = attend(swap @ (X_a + PE)), finds "
        "Y_swapped equal to swap @ Y, and concludes that adding PE changes nothing. What did they "
        "move that should have stayed at its position: the 'words', the 'encodings' or the "
        "'weights'? Answer with one of these three words."
    ),
    expected="encodings",
    hint=(
        "Expand swap @ (X_a + PE) into two terms. Which one belongs to the position, not to the "
        "word? In sentence b, does it move?"
    ),
    solution=(
        "answer = 'encodings'\n"
        "# swap @ (X_a + PE) = swap @ X_a + swap @ PE: the encodings moved with the words, so the\n"
        "# layer's equivariance applies and Y_swapped = swap @ Y. Sentence b's input is\n"
        "# swap @ X_a + PE (PE(p) stays at p), and attend(swap @ X_a + PE) differs from swap @ Y."
    ),
    mistakes=[
        (
            "words",
            "Moving two words is the test itself: sentence b is sentence a with two words exchanged. "
            "What must stay at its position is PE(p), and swap @ (X_a + PE) moves it too.",
        ),
        (
            "weights",
            "attend uses the same W_q, W_k, W_v in both calls: no weight moved. Look at the input: "
            "swap @ (X_a + PE) = swap @ X_a + swap @ PE.",
        ),
    ],
    choices=("words", "encodings", "weights"),
    aliases=dict.fromkeys(ENCODING_SYNONYMS, "encodings"),
)
