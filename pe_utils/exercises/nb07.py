"""Exercises of notebook 07, "Precision and conventions".

Usage::

    from pe_utils.exercises import nb07
    answer = ...
    nb07.float32_spacing.check(answer)
"""

from __future__ import annotations

import numpy as np

from . import Exercise, FunctionExercise

# --- 1. the float32 spacing near p = 10^6 -------------------------------------

float32_spacing = Exercise(
    question=(
        "Angles p·ω_i are computed in float32. An angle near 10⁶ radians (p ≈ 10⁶ on a pair with "
        "ω_i close to 1) must be rounded to a float32. What is the gap between two neighbouring "
        "float32 numbers there, in radians? Give its exact value."
    ),
    expected=2.0**-4,
    hint=(
        "float32 keeps 24 significant bits. 10⁶ lies between 2¹⁹ and 2²⁰, so neighbouring "
        "numbers there are 2^(19 − 23) apart. np.spacing(np.float32(1e6)) confirms it."
    ),
    solution=(
        "answer = 2.0 ** (19 - 23)   # 2^19 ≤ 1e6 < 2^20 and 23 bits after the leading one\n"
        "# = 0.0625 rad: an angle error up to half of that, about 0.03, in sin and cos\n"
        "# check: float(np.spacing(np.float32(1e6)))"
    ),
    mistakes=[
        (2.0**-23, "That is float32's machine epsilon, the gap next to 1. The gap grows with the number."),
        (2.0**-3, "That is the gap between 2²⁰ and 2²¹. 10⁶ is below 2²⁰ = 1 048 576."),
        (2.0**-33, "That is the float64 gap near 10⁶ (about 1.2e-10). The question is about float32."),
        (2.0**-5, "That is half the gap, the largest rounding error. The question asks for the gap."),
    ],
    rtol=1e-9,
    atol=0.0,
)

# --- 2. from interleaved to concatenated ----------------------------------------


def _to_halves(table: np.ndarray) -> np.ndarray:
    table = np.asarray(table)
    return np.concatenate([table[:, 0::2], table[:, 1::2]], axis=1)


def _inverse(table: np.ndarray) -> np.ndarray:
    table = np.asarray(table)
    half = table.shape[1] // 2
    out = np.empty_like(table)
    out[:, 0::2], out[:, 1::2] = table[:, :half], table[:, half:]
    return out


def _cos_first(table: np.ndarray) -> np.ndarray:
    table = np.asarray(table)
    return np.concatenate([table[:, 1::2], table[:, 0::2]], axis=1)


def _case(n: int, d: int) -> tuple[np.ndarray]:
    return (np.arange(n * d, dtype=np.float64).reshape(n, d) / (n * d),)


to_concatenated = FunctionExercise(
    question=(
        "Write a function to_concatenated(table) that takes an (n, d) table in the interleaved "
        "layout [sin, cos, sin, cos, …] and returns it in the concatenated layout "
        "[sin …, cos …] (all the sines first, then all the cosines)."
    ),
    reference=_to_halves,
    cases=[_case(3, 6), _case(2, 8), _case(1, 2)],
    hint="The sines sit in the even columns (table[:, 0::2]) and the cosines in the odd ones.",
    solution=(
        "def to_concatenated(table):\n"
        "    return np.concatenate([table[:, 0::2], table[:, 1::2]], axis=1)\n"
        "\n"
        "\n"
        "answer = to_concatenated\n"
        "# same as pe_utils.convert_layout(table, 'interleaved', 'concatenated')"
    ),
    mistakes=[
        (_inverse, "That goes the other way: it turns a concatenated table into an interleaved one."),
        (_cos_first, "You put the cosines first. The concatenated layout is [sin …, cos …]."),
        (np.asarray, "You returned the table unchanged: its columns must be reordered."),
    ],
)

# --- 3. the slowest pair with the d/2 - 1 denominator ----------------------------

T2T_D = 512

t2t_slowest_frequency = Exercise(
    question=(
        f"A table follows tensor2tensor's convention: ω_i = 10000^(−i/D) with D = d/2 − 1, here with "
        f"d = {T2T_D}. What is the frequency ω of its last pair, i = d/2 − 1, in radians per position? "
        "Give its exact value."
    ),
    expected=1e-4,
    hint="Put i = d/2 − 1 into 10000^(−i/D) with D = d/2 − 1. What is the exponent?",
    solution=(
        f"d = {T2T_D}\n"
        "answer = 10000.0 ** (-(d / 2 - 1) / (d / 2 - 1))   # the exponent is exactly -1: 1e-4\n"
        "# check: pe_utils.frequencies_variant(512, denominator='d/2-1')[-1]"
    ),
    mistakes=[
        (
            10000.0 ** (-(T2T_D - 2) / T2T_D),
            "That is the paper's denominator D = d/2, which gives 10000^(−(d−2)/d), slightly above 1e-4. "
            "With D = d/2 − 1 the last exponent is exactly −1.",
        ),
        (2 * np.pi * 1e4, "That is the last pair's wavelength 2π/ω, in positions. The question asks for ω."),
        (1e4, "That is 1/ω, the timescale. The frequency is its reciprocal."),
    ],
    rtol=1e-9,
    atol=0.0,
)
