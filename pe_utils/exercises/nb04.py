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


# --- checkpoint: shift a row whose position is not given ----------------------

UNKNOWN_D, UNKNOWN_K = 4, 3
_UNKNOWN_P = 217  # not shown to the learner: T_k does not need it


def _pe_row(p: float, d: int = UNKNOWN_D) -> np.ndarray:
    """PE(p) for one position, interleaved (sin, cos) pairs, base 10000."""
    omega = BASE ** (-2.0 * np.arange(d // 2) / d)
    row = np.empty(d)
    row[0::2], row[1::2] = np.sin(p * omega), np.cos(p * omega)
    return row


def _turn_pairs(row: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Turn each (sin, cos) pair of ``row`` by its angle with R(θ) = [[cos θ, sin θ], [−sin θ, cos θ]]."""
    s, c = row[0::2], row[1::2]
    turned = np.empty_like(row)
    turned[0::2] = np.cos(angles) * s + np.sin(angles) * c
    turned[1::2] = -np.sin(angles) * s + np.cos(angles) * c
    return turned


#: PE(p) for d = 4 at a position p the exercise does not give (read-only).
unknown_row = _pe_row(_UNKNOWN_P)
unknown_row.flags.writeable = False

_OMEGA_4 = BASE ** (-2.0 * np.arange(UNKNOWN_D // 2) / UNKNOWN_D)  # [1, 0.01]

shift_unknown_row = Exercise(
    question=(
        f"nb04.unknown_row is PE(p) for d = {UNKNOWN_D} (base {BASE:g}), at a position p that is not "
        f"given. Give PE(p + {UNKNOWN_K}) as an array of {UNKNOWN_D} numbers, each to 4 decimals."
    ),
    expected=lambda: _turn_pairs(unknown_row, UNKNOWN_K * _OMEGA_4),
    hint=(
        "You do not need p: PE(p + k) = T_k PE(p), and T_k depends on k alone. "
        "Turn pair i by k ω_i with ω_0 = 1 and ω_1 = 0.01 "
        f"(pe_utils.shift_matrix(k, {UNKNOWN_D}) builds T_k)."
    ),
    solution=(
        "from pe_utils.exercises import nb04\n"
        "x = nb04.unknown_row  # PE(p), p unknown\n"
        f"answer = shift_matrix({UNKNOWN_K}, {UNKNOWN_D}) @ x  # T_k needs only k\n"
        "# or pair by pair: pe_utils.shift(x, 3)"
    ),
    mistakes=[
        (
            lambda: _turn_pairs(unknown_row, -UNKNOWN_K * _OMEGA_4),
            "That is PE(p − 3): each pair turned backwards. Either the blocks have the textbook sign "
            "[[cos, −sin], [sin, cos]], which is R(−θ) on the (sin, cos) order, or you wrote x @ T_k, "
            "which is T_kᵀ x = T_{−k} x. Use T_k @ x.",
        ),
        (
            lambda: _turn_pairs(unknown_row, np.full(UNKNOWN_D // 2, float(UNKNOWN_K))),
            "Both pairs turned by 3 radians. Each pair turns by its own angle k ω_i: pair 0 by "
            "3 · 1 = 3, pair 1 by 3 · 0.01 = 0.03.",
        ),
        (
            lambda: _turn_pairs(unknown_row, UNKNOWN_K * BASE ** (-np.arange(UNKNOWN_D // 2) / UNKNOWN_D)),
            "Pair 1 turned by 3 · 10000^(−1/4) = 0.3. The exponent is −2i/d: ω_1 = 10000^(−2/4) = 0.01.",
        ),
        (
            lambda: np.array(unknown_row),
            "That is PE(p) itself. Apply T_3 to it: each pair turns by 3 ω_i.",
        ),
    ],
    decimals=4,
)


# --- find the slip: a table multiplied on the wrong side --------------------------

SLIP_K = 5

row_form_slip = Exercise(
    question=(
        f"A table stores PE(p) as row p. A colleague checks PE(p + k) = T_k PE(p) with k = {SLIP_K} by "
        "shifted = PE[:n - k] @ shift_matrix(k, d), compares shifted with PE[k:], and the check fails. "
        "Row p of shifted is PE(p + j) for one whole number j. What is j? Give a whole number."
    ),
    expected=-SLIP_K,
    hint=(
        "Row p of shifted is PE(p)ᵀ T_k = (T_kᵀ PE(p))ᵀ. Which offset does T_kᵀ shift by? "
        "(Section 4: T_{−k} = T_kᵀ.)"
    ),
    solution=(
        f"k = {SLIP_K}\n"
        "answer = -k  # PE(p)ᵀ T_k = (T_kᵀ PE(p))ᵀ = (T_{−k} PE(p))ᵀ = PE(p − k)ᵀ\n"
        "# the fix: shifted = PE[:n - k] @ shift_matrix(k, d).T"
    ),
    mistakes=[
        (
            SLIP_K,
            "That is what the colleague wanted, but the check fails. A row times T_k is "
            "PE(p)ᵀ T_k = (T_kᵀ PE(p))ᵀ, and T_kᵀ = T_{−k} turns the other way.",
        ),
        (
            0,
            "T_k is applied, transposed: PE(p)ᵀ T_k = (T_kᵀ PE(p))ᵀ. T_kᵀ = T_{−k} is a shift, "
            "not the identity.",
        ),
        (
            -2 * SLIP_K,
            "Row p of shifted and row p of PE[k:] are 2k positions apart, but j counts from p: "
            "row p of shifted is T_kᵀ PE(p).",
        ),
        (
            2 * SLIP_K,
            "Mind the direction: T_kᵀ = T_{−k} shifts backwards, so j is negative.",
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
            "Mind the sign: with k = 7 the shift is forward, and the block R(θ) of T_k turns by θ = +k ω_i.",
        ),
    ],
    decimals=4,
)

__all__ = ["block_angle", "row_form_slip", "rotation_for_sin_cos", "shift_unknown_row", "unknown_row"]
