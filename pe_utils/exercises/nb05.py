"""Exercises of notebook 05, the dot-product identity.

``PE(p)·PE(p+k) = f(k) = Σ_i cos(k ω_i)`` with ``ω_i = base^(−2i/d)``,
``i = 0 … d/2 − 1``. Usage::

    from pe_utils.exercises import nb05
    answer = ...
    nb05.same_offset.check(answer)
"""

from __future__ import annotations

import numpy as np

from . import Exercise, FunctionExercise


def _omega(d_model: int, base: float, exponent_scale: float = 2.0) -> np.ndarray:
    """``base^(−scale·i/d)`` for ``i = 0 … d/2 − 1`` (scale 2 is the right one)."""
    pair_index = np.arange(d_model // 2, dtype=np.float64)
    return base ** (-exponent_scale * pair_index / d_model)


def _profile(k: float, d_model: int, base: float) -> float:
    """The reference ``f(k) = Σ_i cos(k ω_i)``."""
    return float(np.sum(np.cos(k * _omega(d_model, base))))


# --- checkpoint: the same offset, another place -----------------------------

SAME_OFFSET_D = 8

same_offset = Exercise(
    question=(
        f"Section 1 printed PE(3)·PE(10) = 3.516271 for d = {SAME_OFFSET_D}. Use the identity, not a "
        "table: what is PE(50)·PE(43)? Give it to 4 decimals."
    ),
    expected=lambda: _profile(43 - 50, SAME_OFFSET_D, 10000.0),
    decimals=4,
    hint=(
        "The dot product depends on q − p alone. What is q − p here, and how does cos treat a negative angle?"
    ),
    solution=(
        "# q − p = 43 − 50 = −7, and f(−7) = f(7) because cosine is even:\n"
        "# the same number as PE(3)·PE(10).\n"
        "answer = 3.516271"
    ),
    mistakes=[
        (
            lambda: -_profile(7, SAME_OFFSET_D, 10000.0),
            "The offset is −7, but cos(−x) = cos(x): f(−7) = f(7), with the same sign as PE(3)·PE(10).",
        ),
        (
            lambda: _profile(50 + 43, SAME_OFFSET_D, 10000.0),
            "That is f(93), with the sum of the positions. The identity uses their difference, q − p.",
        ),
        (
            float(SAME_OFFSET_D) / 2,
            "That is f(0) = d/2, the dot product of an encoding with itself. Here the positions are 7 apart.",
        ),
        (
            lambda: _profile(50, SAME_OFFSET_D, 10000.0),
            "That is f(50): one of the positions, not the offset between them (43 − 50 = −7).",
        ),
    ],
)


# --- 1. read the offset off the dot product ----------------------------------

OFFSET_D = 16
OFFSET_TRUE = 17
OFFSET_MAX = 40
OFFSET_DOT = round(_profile(OFFSET_TRUE, OFFSET_D, 10000.0), 4)  # 5.0548, as the question gives it


def _offset_from_dot() -> int:
    """The k in 1 … OFFSET_MAX whose f(k) is closest to the dot product given."""
    gaps = [abs(_profile(k, OFFSET_D, 10000.0) - OFFSET_DOT) for k in range(1, OFFSET_MAX + 1)]
    return 1 + int(np.argmin(gaps))


offset_from_dot = Exercise(
    question=(
        f"Two positions p < q, at most {OFFSET_MAX} apart, of a table with d = {OFFSET_D} and "
        f"base 10000 have PE(p)·PE(q) = {OFFSET_DOT}. What is q − p? Give a whole number."
    ),
    expected=_offset_from_dot,
    hint=(
        "PE(p)·PE(q) = f(q − p). Compute f(k) = Σ_i cos(k ω_i) for k = 1 … 40 "
        "(pe_utils.similarity_profile) and find the k where it equals the number given."
    ),
    solution=(
        f"k = np.arange(1, {OFFSET_MAX + 1})\n"
        f"f = pe_utils.similarity_profile(k, {OFFSET_D})\n"
        f"# p itself cannot be found: every start p gives the same f(q − p)\n"
        f"answer = int(k[np.argmin(np.abs(f - {OFFSET_DOT}))])"
    ),
    mistakes=[
        (
            -OFFSET_TRUE,
            "f(−k) = f(k), so the dot product cannot tell the order of the two positions; the "
            "question says p < q, so q − p is positive.",
        ),
        (
            OFFSET_TRUE - 1,
            "Off by one: that is the index of the match in an array of f(1), f(2), …; the offset "
            "is that index + 1.",
        ),
    ],
)


# --- 2. the squared distance without building the table --------------------


def _reference_distance(k: float, d_model: int, base: float) -> float:
    """``‖PE(p+k) − PE(p)‖² = ‖PE(p+k)‖² + ‖PE(p)‖² − 2 PE(p)·PE(p+k) = d − 2 f(k)``."""
    return d_model - 2.0 * _profile(k, d_model, base)


def _dot_product_only(k: float, d_model: int, base: float) -> float:
    return _profile(k, d_model, base)


def _distance_not_squared(k: float, d_model: int, base: float) -> float:
    return float(np.sqrt(_reference_distance(k, d_model, base)))


def _cross_term_once(k: float, d_model: int, base: float) -> float:
    return d_model - _profile(k, d_model, base)


def _one_norm_only(k: float, d_model: int, base: float) -> float:
    return d_model / 2 - 2.0 * _profile(k, d_model, base)


def _degrees(k: float, d_model: int, base: float) -> float:
    return d_model - 2.0 * float(np.sum(np.cos(np.deg2rad(k * _omega(d_model, base)))))


def _per_pair(k: float, d_model: int, base: float) -> np.ndarray:
    return 2.0 - 2.0 * np.cos(k * _omega(d_model, base))


def _dimension_index(k: float, d_model: int, base: float) -> float:
    return d_model - 2.0 * float(np.sum(np.cos(k * _omega(d_model, base, exponent_scale=1.0))))


def _base_ignored(k: float, d_model: int, base: float) -> float:
    return _reference_distance(k, d_model, 10000.0)


def _sign_flipped(k: float, d_model: int, base: float) -> float:
    return -_reference_distance(k, d_model, base)


DISTANCE_CASES = (
    (0, 8, 10000.0),
    (3, 8, 10000.0),
    (-7, 16, 10000.0),
    (5, 16, 100.0),
    (40, 64, 10000.0),
)

squared_distance = FunctionExercise(
    question=(
        "Notebook 03 found that the distance between PE(p) and PE(p+k) is the same at every start p. "
        "Write dist2(k, d_model, base) that returns the squared distance ‖PE(p+k) − PE(p)‖² "
        "for an integer offset k, without building any table (ω_i = base^(−2i/d))."
    ),
    reference=_reference_distance,
    cases=DISTANCE_CASES,
    hint=(
        "Expand ‖a − b‖² = ‖a‖² + ‖b‖² − 2 a·b. Every encoding has ‖PE‖² = d/2, and the dot "
        "product PE(p)·PE(p+k) is f(k) = Σ_i cos(k ω_i)."
    ),
    solution=(
        "def dist2(k, d_model, base):\n"
        "    i = np.arange(d_model // 2)\n"
        "    omega = base ** (-2 * i / d_model)\n"
        "    return float(d_model - 2 * np.sum(np.cos(k * omega)))   # d/2 + d/2 − 2 f(k)\n"
        "\n"
        "answer = dist2"
    ),
    mistakes=[
        (
            _dot_product_only,
            "That is the dot product f(k) = PE(p)·PE(p+k). The squared distance is ‖a‖² + ‖b‖² − 2 a·b.",
        ),
        (
            _distance_not_squared,
            "That is the distance itself; the question asks for its square (no square root).",
        ),
        (
            _cross_term_once,
            "The cross term appears twice: ‖a − b‖² = ‖a‖² + ‖b‖² − 2 a·b, so subtract 2 f(k).",
        ),
        (
            _one_norm_only,
            "Each of the two encodings has ‖PE‖² = d/2, so together they give d, not d/2.",
        ),
        (
            _degrees,
            "Your angles were treated as degrees. k ω_i is in radians: use np.cos on it directly.",
        ),
        (
            _per_pair,
            "That is one term per pair, 2 − 2 cos(k ω_i). The squared distance is one number: "
            "add the terms up.",
        ),
        (
            _dimension_index,
            "Your frequencies use base^(−i/d). With i the pair index the exponent is −2i/d.",
        ),
        (
            _base_ignored,
            "Your function always uses base 10000. Use the base it is given: one of the test "
            "cases is (5, 16, 100.0).",
        ),
        (
            _sign_flipped,
            "The sign is flipped: a squared distance is never negative. "
            "‖a − b‖² = ‖a‖² + ‖b‖² − 2 a·b = d − 2 f(k).",
        ),
    ],
)


# --- 3. where f rises again -------------------------------------------------

FIRST_RISE_D = 256
FIRST_RISE_BASE = 10000.0


def _first_rise_of(d_model: int) -> int:
    previous = _profile(0, d_model, FIRST_RISE_BASE)
    k = 1
    while True:
        current = _profile(k, d_model, FIRST_RISE_BASE)
        if current > previous:
            return k
        previous, k = current, k + 1


def _first_rise() -> int:
    return _first_rise_of(FIRST_RISE_D)


first_rise = Exercise(
    question=(
        f"For d = {FIRST_RISE_D} and base = {FIRST_RISE_BASE:g}, what is the smallest integer "
        "offset k > 0 at which the profile rises again, f(k) > f(k − 1)? Give an integer."
    ),
    expected=_first_rise,
    hint=(
        "Compute f for k = 0 … 100 with pe_utils.similarity_profile, then look at np.diff(f): "
        "np.diff(f)[j] = f(j + 1) − f(j)."
    ),
    solution=(
        "k = np.arange(101)\n"
        f"f = pe_utils.similarity_profile(k, {FIRST_RISE_D}, base={FIRST_RISE_BASE:g})\n"
        "j = int(np.argmax(np.diff(f) > 0))   # first index where the difference is positive\n"
        "answer = j + 1                        # np.diff(f)[j] = f(j+1) − f(j)"
    ),
    mistakes=[
        (
            lambda: _first_rise() - 1,
            "That is the last offset before the rise (the index j of np.diff(f), where "
            "np.diff(f)[j] = f(j + 1) − f(j)); the rise happens at k = j + 1.",
        ),
        (
            lambda: _profile(_first_rise(), FIRST_RISE_D, FIRST_RISE_BASE),
            "That is the value f(k) at the rise; the question asks for the offset k.",
        ),
        (
            lambda: _first_rise_of(512),
            "That is the first rise for d = 512, printed in section 6. The question asks for "
            f"d = {FIRST_RISE_D}.",
        ),
    ],
)

__all__ = ["first_rise", "offset_from_dot", "same_offset", "squared_distance"]
