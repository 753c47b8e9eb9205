"""Exercises of notebook 09: longer contexts.

Usage::

    from pe_utils.exercises import nb09
    answer = ...
    nb09.ntk_base.check(answer)
"""

from __future__ import annotations

import math

from . import Exercise

# --- 1. the NTK-aware base -------------------------------------------------------

NTK_BASE, NTK_D, NTK_FACTOR = 10000.0, 128, 4.0

ntk_base = Exercise(
    question=(
        f"A model with head size d = {NTK_D} and base {NTK_BASE:g} is extended by s = {NTK_FACTOR:g} "
        "with the NTK-aware rule. What is the new base? Give it to 5 significant digits."
    ),
    expected=NTK_BASE * NTK_FACTOR ** (NTK_D / (NTK_D - 2)),
    hint="The new base is base·s^(d/(d−2)); the exponent is what makes the last pair exactly s times slower.",
    solution=(
        "answer = 10000.0 * 4.0 ** (128 / 126)   # base·s^(d/(d−2))\n"
        "# check: the last pair is divided by s\n"
        "# pe_utils.rope_frequencies(128, scaling={'rope_type': 'ntk', 'factor': 4.0})[-1] * 4"
    ),
    mistakes=[
        (
            NTK_BASE * NTK_FACTOR,
            "That is base·s: the exponent d/(d−2) is missing, so the last pair "
            "is divided by a little less than s.",
        ),
        (
            NTK_BASE * NTK_FACTOR ** ((NTK_D - 2) / NTK_D),
            "The exponent is upside down: d/(d−2), not (d−2)/d.",
        ),
        (NTK_BASE / NTK_FACTOR ** (NTK_D / (NTK_D - 2)), "The base must grow (slower pairs), not shrink."),
        (NTK_BASE * NTK_FACTOR ** (NTK_D / 2), "The exponent is d/(d−2), close to 1, not d/2."),
    ],
    significant=5,
)

# --- 2. Llama 3.1's divisor for one pair -------------------------------------------

LLAMA_L, LLAMA_S, LLAMA_LOW, LLAMA_HIGH, LLAMA_WAVELENGTH = 8192, 8.0, 1.0, 4.0, 4096.0


def _llama_divisor(wavelength: float) -> float:
    smooth = (LLAMA_L / wavelength - LLAMA_LOW) / (LLAMA_HIGH - LLAMA_LOW)
    return 1.0 / ((1.0 - smooth) / LLAMA_S + smooth)


llama3_divisor = Exercise(
    question=(
        f"Llama 3.1's rule with L = {LLAMA_L}, s = {LLAMA_S:g}, low_freq_factor = {LLAMA_LOW:g} and "
        f"high_freq_factor = {LLAMA_HIGH:g}. A pair has wavelength λ = {LLAMA_WAVELENGTH:g} positions. "
        "By what number is its frequency divided (ω / ω')? Give its exact value."
    ),
    expected=_llama_divisor(LLAMA_WAVELENGTH),
    hint=(
        "λ = 4096 lies between L/high_freq_factor = 2048 and L/low_freq_factor = 8192: the pair is in "
        "the band. There t = (L/λ − low)/(high − low) and ω' = (1 − t)·ω/s + t·ω."
    ),
    solution=(
        "t = (8192 / 4096 - 1.0) / (4.0 - 1.0)        # = 1/3\n"
        "answer = 1 / ((1 - t) / 8.0 + t)              # ω/ω' = 2.4\n"
        "# check: ω/ω' from pe_utils.rope_frequencies for a pair with that wavelength"
    ),
    mistakes=[
        (LLAMA_S, "That is the divisor of the slow pairs (λ > 8192). This pair is in the band."),
        (1.0, "That is the divisor of the fast pairs (λ < 2048). This pair is in the band."),
        (
            (1 - 1 / 3) * LLAMA_S + 1 / 3,
            "You blended the divisors 8 and 1. The rule blends the "
            "frequencies: ω' = (1 − t)·ω/s + t·ω, so the divisor is 1/((1 − t)/s + t).",
        ),
        (
            1.0 / ((1 - 2 / 3) / LLAMA_S + 2 / 3),
            "Here t = 2/3 weighs the unchanged ω. Either t was "
            "made linear in λ (it is linear in L/λ, the turns within L: t = (8192/4096 − 1)/3 = 1/3), or "
            "t and 1 − t were swapped (t weighs ω, 1 − t weighs ω/s).",
        ),
    ],
    rtol=1e-9,  # the exact value, as the question asks
    atol=0.0,
)

# --- 3. YaRN's factor on the logits --------------------------------------------------

YARN_FACTOR = 16.0

yarn_logit_factor = Exercise(
    question=(
        f"YaRN with s = {YARN_FACTOR:g} multiplies the cos and sin tables by 0.1·ln s + 1, so both the "
        "rotated query and the rotated key carry that number. By what number are the attention logits "
        "qᵀk multiplied? Give it to 4 significant digits."
    ),
    expected=(0.1 * math.log(YARN_FACTOR) + 1.0) ** 2,
    hint="Each of q and k is multiplied by m = 0.1·ln s + 1 (natural log). What happens to qᵀk?",
    solution=(
        "m = 0.1 * np.log(16.0) + 1.0     # pe_utils.yarn_attention_scale(16.0)\n"
        "answer = m**2                    # (m q)ᵀ(m k) = m² qᵀk, the paper's 1/t"
    ),
    mistakes=[
        (
            0.1 * math.log(YARN_FACTOR) + 1.0,
            "That is the factor on each of q and k. The logit qᵀk gets it twice.",
        ),
        ((0.1 * math.log10(YARN_FACTOR) + 1.0) ** 2, "The formula uses the natural logarithm, not log10."),
        (
            0.1 * math.log10(YARN_FACTOR) + 1.0,
            "The formula uses the natural logarithm, and the "
            "logit gets the factor twice (from q and from k).",
        ),
        (YARN_FACTOR, "The logits are not multiplied by s; the factor grows only with ln s."),
        (
            1.0 / (0.1 * math.log(YARN_FACTOR) + 1.0) ** 2,
            "That is the temperature t itself. The logits are divided by t, i.e. multiplied by 1/t = m².",
        ),
    ],
    significant=4,
)
