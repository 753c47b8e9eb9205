"""Exercises of notebook 08: RoPE, its sign, its layouts and bfloat16 positions.

Usage::

    from pe_utils.exercises import nb08
    answer = ...
    nb08.rope_offset.check(answer)
"""

from __future__ import annotations

import numpy as np

from . import Exercise, FunctionExercise

# --- 1. the offset the score sees ------------------------------------------------

ROPE_P, ROPE_Q = 3, 10

rope_offset = Exercise(
    question=(
        f"RoPE rotates the query at p = {ROPE_P} by R_p (blocks R(p ωᵢ)ᵀ, notebook 04's block "
        f"transposed) and the key at q = {ROPE_Q} by R_q. Their score (R_p a)·(R_q b) equals a·R_k b. "
        "What is k? Give an integer."
    ),
    expected=ROPE_Q - ROPE_P,
    hint="(R_p a)·(R_q b) = a·R_pᵀ R_q b, and R_pᵀ = R_{−p}, R_s R_t = R_{s+t}.",
    solution=f"answer = {ROPE_Q} - {ROPE_P}   # R_pᵀ R_q = R_(−p) R_q = R_(q − p)",
    mistakes=[
        (
            ROPE_P - ROPE_Q,
            "That is the offset in notebook 04's form: R_k = T_{−k}, so the score is a·T_{p−q} b. "
            "In terms of R it is a·R_{q−p} b.",
        ),
        (ROPE_P + ROPE_Q, "R_pᵀ undoes the rotation by p: R_pᵀ = R_{−p}, so the angles subtract."),
    ],
    rtol=0.0,
    atol=1e-6,  # whole numbers: any float within 1e-6 of it is the same answer
)

# --- 2. a position stored in bfloat16 --------------------------------------------

BF16_POSITION = 3001

bfloat16_position = Exercise(
    question=(
        f"A position p = {BF16_POSITION} is stored in bfloat16 (8 significant bits, round to "
        "nearest, ties to even). Which number is stored? Give a whole number."
    ),
    expected=3008.0,
    hint=(
        "2¹¹ = 2048 ≤ 3001 < 4096 = 2¹², and bfloat16 keeps 8 significant bits, so the "
        "neighbouring bfloat16 numbers there are 2^(11 − 7) = 16 apart. Which multiple of 16 is nearest?"
    ),
    solution=(
        "answer = 16 * round(3001 / 16)   # 3001 / 16 = 187.56…, so 188 · 16\n"
        "# check: pe_utils.round_to_bfloat16(3001)"
    ),
    mistakes=[
        (3001.0, "3001 needs 12 significant bits (101110111001 in binary); bfloat16 keeps only 8."),
        (2992.0, "That cuts the extra bits off (rounds down). bfloat16 rounds to the nearest number: 3008."),
        (
            3000.0,
            "That is what float16 stores (11 significant bits, numbers 2 apart there), and what numbers 8 "
            "apart would give. bfloat16 keeps 8 significant bits: 2¹¹ ≤ 3001 < 2¹², so its numbers are "
            "2^(11 − 7) = 16 apart there.",
        ),
        (
            2048.0,
            "Up to 2048 = 2¹¹ float16 stores every integer exactly (bfloat16 only up to 256). The question "
            "is what 3001 becomes: round it to the nearest bfloat16.",
        ),
    ],
    rtol=0.0,
    atol=1e-6,  # whole numbers: any float within 1e-6 of it is the same answer
)

# --- 3. from half-split to interleaved pairs ------------------------------------------


def _half_split_to_interleaved(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    half = x.shape[-1] // 2
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = x[..., :half], x[..., half:]
    return out


def _interleaved_to_half_split(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return np.concatenate([x[..., 0::2], x[..., 1::2]], axis=-1)


def _members_swapped(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    half = x.shape[-1] // 2
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = x[..., half:], x[..., :half]
    return out


def _split_first_axis(x: np.ndarray) -> np.ndarray:
    # len(x) and axis 0: right for one vector, wrong for a batch of them
    x = np.asarray(x, dtype=np.float64)
    half = len(x) // 2
    out = np.empty_like(x)
    out[0::2], out[1::2] = x[:half], x[half:]
    return out


half_split_to_interleaved = FunctionExercise(
    question=(
        "A query vector was made for the half-split layout (GPT-NeoX, Hugging Face): its pairs are "
        "(x[i], x[i + d/2]). Write half_split_to_interleaved(x) that reorders the last axis so that "
        "the same pairs sit at (2i, 2i+1), in the same order, so that interleaved RoPE (RoFormer, "
        "Meta) gives the very same scores. x has shape (..., d), d even."
    ),
    reference=_half_split_to_interleaved,
    cases=[
        (np.arange(1.0, 7.0),),
        (np.arange(1.0, 17.0).reshape(2, 8),),
        (np.array([[[0.5, -2.0, 3.0, 4.5]], [[1.0, 0.0, -1.5, 2.5]]]),),  # a batch of shape (2, 1, 4)
    ],
    hint=(
        "Dimension 2i of the result is the first member of pair i, x[i]; dimension 2i+1 is the "
        "second member, x[i + d/2]. Fill out[..., 0::2] and out[..., 1::2]."
    ),
    solution=(
        "def half_split_to_interleaved(x):\n"
        "    half = x.shape[-1] // 2\n"
        "    out = np.empty_like(x)\n"
        "    out[..., 0::2], out[..., 1::2] = x[..., :half], x[..., half:]\n"
        "    return out\n"
        "\n"
        "\n"
        "answer = half_split_to_interleaved\n"
        "# check: rope(answer(x), p) equals answer(rope(x, p, layout='concatenated')), and scores match"
    ),
    mistakes=[
        (
            _interleaved_to_half_split,
            "That goes the other way: it takes interleaved pairs (2i, 2i+1) to halves. Here the "
            "input is in halves, pair i = (x[i], x[i + d/2]).",
        ),
        (
            _members_swapped,
            "The two members of each pair are swapped: (x[i + d/2], x[i]) turns the other way under "
            "the same rotation, so the scores would see p − q instead of q − p.",
        ),
        (
            _split_first_axis,
            "Right for one vector, wrong for a batch: len(x) and axis 0 split the rows. Work on the "
            "last axis: half = x.shape[-1] // 2 and x[..., :half], x[..., half:].",
        ),
    ],
)
