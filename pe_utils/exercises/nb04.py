"""Exercises of notebook 04, shifting is rotating.

For pair ``i`` and offset ``k`` the shift ``PE(p) → PE(p+k)`` is the 2×2 block
``R(θ) = [[cos θ, sin θ], [−sin θ, cos θ]]`` acting on ``(sin pω_i, cos pω_i)``
with ``θ = k ω_i``; ``T_k`` stacks the blocks and ``T_a T_b = T_{a+b}``.
Usage::

    from pe_utils.exercises import nb04
    answer = ...
    nb04.rotation_for_sin_cos.check(answer)
"""

from __future__ import annotations

import math

import numpy as np

from . import Exercise, FunctionExercise

BASE = 10000.0


# --- 1. R(θ) for the (sin, cos) order ---------------------------------------


def _rotation_sin_cos(theta: float) -> np.ndarray:
    """The block that maps ``(sin α, cos α)`` to ``(sin(α+θ), cos(α+θ))``."""
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, s], [-s, c]])


def _textbook(theta: float) -> np.ndarray:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s], [s, c]])


def _degrees(theta: float) -> np.ndarray:
    return _rotation_sin_cos(math.radians(theta))


def _textbook_degrees(theta: float) -> np.ndarray:
    return _textbook(math.radians(theta))


def _sin_cos_swapped(theta: float) -> np.ndarray:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[s, c], [-c, s]])


def _output_cos_sin(theta: float) -> np.ndarray:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[-s, c], [c, s]])  # rows give cos(α+θ) first, then sin(α+θ)


rotation_for_sin_cos = FunctionExercise(
    question=(
        "Write R(theta) returning the 2×2 array that maps [sin α, cos α] to "
        "[sin(α + θ), cos(α + θ)] (the (sin, cos) order of a pair of PE; θ in radians)."
    ),
    reference=_rotation_sin_cos,
    cases=((0.3,), (1.0,), (-2.0,), (2.5,), (10.0,)),
    hint=(
        "Write out sin(α+θ) = sin α cos θ + cos α sin θ and cos(α+θ) = cos α cos θ − sin α sin θ. "
        "Row 1 of R holds the coefficients of (sin α, cos α) in the first, row 2 in the second."
    ),
    solution=(
        "def R(theta):\n"
        "    c, s = np.cos(theta), np.sin(theta)\n"
        "    return np.array([[c, s], [-s, c]])\n"
        "answer = R\n"
        "# check: pe_utils.shift_matrix(k, 2) == R(k) (pair 0 has ω_0 = 1)"
    ),
    mistakes=[
        (
            _textbook,
            "That is the textbook rotation [[cos θ, −sin θ], [sin θ, cos θ]], the transpose of the "
            "block you need, that is R(−θ). It is right for the (cos, sin) order; on (sin, cos) it "
            "shifts backwards, to angle α − θ.",
        ),
        (
            _degrees,
            "Your function treats θ as degrees. np.sin and np.cos take radians: use theta directly.",
        ),
        (
            _textbook_degrees,
            "Two slips: θ is treated as degrees (use radians directly), and the signs are those of "
            "the textbook (cos, sin) rotation; for (sin, cos) the −sin θ goes in row 2.",
        ),
        (
            _sin_cos_swapped,
            "sin and cos are swapped inside the matrix: the diagonal holds cos θ, the "
            "off-diagonal ±sin θ (at θ = 0 the block must be the identity).",
        ),
        (
            _output_cos_sin,
            "Your matrix returns the shifted pair in (cos, sin) order. Keep (sin, cos) in and "
            "out: the first row must give sin(α + θ).",
        ),
    ],
)


# --- 2. composing two shifts ---------------------------------------------------

COMPOSE_A, COMPOSE_B = 3, -5

composed_offset = Exercise(
    question=(
        f"T_a T_b equals T_k for a single offset k. For a = {COMPOSE_A} and b = {COMPOSE_B}, "
        "what is k? Give an integer."
    ),
    expected=COMPOSE_A + COMPOSE_B,
    hint=(
        "Block i of T_a T_b is R(a ω_i) R(b ω_i): rotating by a ω_i and then by b ω_i. "
        "What single angle is that?"
    ),
    solution=(
        f"a, b = {COMPOSE_A}, {COMPOSE_B}\n"
        "answer = a + b   # rotation angles add: R(aω) R(bω) = R((a + b)ω)\n"
        "# check: shift_matrix(a, d) @ shift_matrix(b, d) ≈ shift_matrix(a + b, d)"
    ),
    mistakes=[
        (
            COMPOSE_A - COMPOSE_B,
            "You subtracted. Angles add: T_a T_b = T_{a+b}, and here b is already negative.",
        ),
        (
            COMPOSE_B - COMPOSE_A,
            "That is b − a. Rotation angles add: k = a + b.",
        ),
        (
            COMPOSE_A * COMPOSE_B,
            "Angles add; they do not multiply: rotating by aω and then by bω rotates by (a + b)ω.",
        ),
        (
            abs(COMPOSE_A + COMPOSE_B),
            "Mind the sign: a + b is negative here, a shift backwards (T_{−2} = T_2ᵀ, not T_2).",
        ),
    ],
)


# --- 3. the rotation angle of one block ------------------------------------------

ANGLE_K, ANGLE_PAIR, ANGLE_D = 7, 3, 16


def _angle(k: float, pair: float, d: int, *, exponent_scale: float = 2.0) -> float:
    return k * BASE ** (-exponent_scale * pair / d)


block_angle = Exercise(
    question=(
        f"In T_k with k = {ANGLE_K}, d = {ANGLE_D}, base = {BASE:g}, the block of pair "
        f"i = {ANGLE_PAIR} (dimensions {2 * ANGLE_PAIR} and {2 * ANGLE_PAIR + 1}) is R(θ). "
        "What is θ in radians? Give it to 4 decimals."
    ),
    expected=_angle(ANGLE_K, ANGLE_PAIR, ANGLE_D),
    hint="θ = k ω_i with ω_i = base^(−2i/d); pairs count from i = 0.",
    solution=(
        f"k, i, d = {ANGLE_K}, {ANGLE_PAIR}, {ANGLE_D}\n"
        "answer = k * 10000.0 ** (-2 * i / d)\n"
        "# check: np.arctan2(T[2*i, 2*i+1], T[2*i, 2*i]) with T = shift_matrix(k, d)"
    ),
    mistakes=[
        (
            _angle(ANGLE_K, ANGLE_PAIR - 1, ANGLE_D),
            "Off by one pair: that is the angle of pair i − 1. Pair i uses ω_i = base^(−2i/d), "
            "i counted from 0.",
        ),
        (
            _angle(ANGLE_K, ANGLE_PAIR + 1, ANGLE_D),
            "Off by one pair: that is the angle of pair i + 1. Pair i uses ω_i = base^(−2i/d), "
            "i counted from 0.",
        ),
        (
            math.degrees(_angle(ANGLE_K, ANGLE_PAIR, ANGLE_D)),
            "That is the angle in degrees. The question asks for radians: θ = k ω_i as it is.",
        ),
        (
            _angle(ANGLE_K, ANGLE_PAIR, ANGLE_D, exponent_scale=1.0),
            "Your exponent is −i/d. With i the pair index, ω_i = base^(−2i/d).",
        ),
        (
            _angle(ANGLE_K, 2 * ANGLE_PAIR, ANGLE_D),
            "You used the dimension index 2i in place of the pair index i: "
            "ω_i = base^(−2i/d) with i = 3 here.",
        ),
        (
            _angle(1, ANGLE_PAIR, ANGLE_D),
            "That is ω_i, the angle for one step. The block of T_k rotates by k ω_i.",
        ),
        (
            -_angle(ANGLE_K, ANGLE_PAIR, ANGLE_D),
            "Mind the sign: with k = 7 the shift is forward, and the block R(θ) of T_k "
            "turns by θ = +k ω_i.",
        ),
    ],
    decimals=4,
)

__all__ = ["block_angle", "composed_offset", "rotation_for_sin_cos"]
