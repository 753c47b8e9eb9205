"""The checkers of notebook 05 accept the reference answers and explain typical mistakes.

Reference values here are computed independently of pe_utils: with ``math``
and explicit loops over the pairs ``i``.
"""

import math

import numpy as np
import pytest
from exercise_contract import printed_solution_test

from pe_utils.exercises import nb05


def f_by_hand(k, d_model, base):
    """Σ_i cos(k ω_i), ω_i = base^(−2i/d), by an explicit loop over the d/2 pairs."""
    return sum(math.cos(k * base ** (-2 * i / d_model)) for i in range(d_model // 2))


def first_rise_by_hand(d_model, base):
    k = 1
    while f_by_hand(k, d_model, base) <= f_by_hand(k - 1, d_model, base):
        k += 1
    return k


# The code that solution() prints, run with np and pe_utils in scope, passes check().
test_printed_solution_is_accepted = printed_solution_test(
    [nb05.squared_norm, nb05.squared_distance, nb05.first_rise]
)


# --- squared_norm ------------------------------------------------------------


def test_squared_norm_accepts_d_over_2():
    assert nb05.squared_norm.check(256)
    assert nb05.squared_norm.check(256.0)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [(512, "only d/2 pairs"), (16.0, "is its square"), (1, "not a unit vector")],
)
def test_squared_norm_explains_mistakes(answer, phrase):
    result = nb05.squared_norm.check(answer)
    assert not result
    assert phrase in result.message


def test_squared_norm_matches_an_actual_encoding():
    # ‖PE(p)‖² for d = 512 at a few positions, from the formula by hand.
    for p in (0, 7, 1234):
        square = sum(
            math.sin(p * 10000 ** (-2 * i / 512)) ** 2 + math.cos(p * 10000 ** (-2 * i / 512)) ** 2
            for i in range(256)
        )
        assert nb05.squared_norm.check(square)


def test_squared_norm_rejects_unknown_answer_without_crashing():
    result = nb05.squared_norm.check("two hundred")
    assert not result
    assert "Expected a number" in result.message


# --- squared_distance --------------------------------------------------------


def pe_by_hand(p, d_model, base):
    """PE(p) by an explicit loop: entry 2i = sin(p ω_i), entry 2i+1 = cos(p ω_i)."""
    out = []
    for i in range(d_model // 2):
        angle = p * base ** (-2 * i / d_model)
        out += [math.sin(angle), math.cos(angle)]
    return np.array(out)


def dist2_by_hand(k, d_model, base):
    """‖PE(p+k) − PE(p)‖² from two encodings built by hand, at the start p = 11."""
    diff = pe_by_hand(11 + k, d_model, base) - pe_by_hand(11, d_model, base)
    return float(diff @ diff)


def test_squared_distance_accepts_distance_of_hand_encodings():
    assert nb05.squared_distance.check(dist2_by_hand)


def test_squared_distance_accepts_formula_from_the_profile():
    def dist2(k, d_model, base):
        return d_model - 2 * f_by_hand(k, d_model, base)

    assert nb05.squared_distance.check(dist2)


def test_squared_distance_does_not_depend_on_the_start():
    # the reason the exercise has no p: the same value at every start, as in notebook 03
    for start in (0, 5, 300):
        diff = pe_by_hand(start + 3, 16, 10000.0) - pe_by_hand(start, 16, 10000.0)
        assert math.isclose(float(diff @ diff), dist2_by_hand(3, 16, 10000.0), rel_tol=1e-9)


@pytest.mark.parametrize(
    ("wrong", "phrase"),
    [
        (f_by_hand, "That is the dot product"),
        (lambda k, d, b: math.sqrt(max(dist2_by_hand(k, d, b), 0.0)), "asks for its square"),
        (lambda k, d, b: d - f_by_hand(k, d, b), "cross term appears twice"),
        (lambda k, d, b: d / 2 - 2 * f_by_hand(k, d, b), "together they give d"),
        (
            lambda k, d, b: d - 2 * sum(math.cos(math.radians(k * b ** (-2 * i / d))) for i in range(d // 2)),
            "degrees",
        ),
        (lambda k, d, b: d - 2 * sum(math.cos(k * b ** (-i / d)) for i in range(d // 2)), "−2i/d"),
        (lambda k, d, b: [2 - 2 * math.cos(k * b ** (-2 * i / d)) for i in range(d // 2)], "add the terms"),
    ],
    ids=[
        "dot-product", "not-squared", "cross-term-once", "one-norm", "degrees", "dimension-index", "per-pair",
    ],
)
def test_squared_distance_explains_mistakes(wrong, phrase):
    result = nb05.squared_distance.check(wrong)
    assert not result
    assert phrase in result.message


def test_squared_distance_reports_failing_function():
    def broken(k, d_model, base):
        raise RuntimeError("oops")

    result = nb05.squared_distance.check(broken)
    assert not result
    assert "RuntimeError" in result.message


def test_squared_distance_rejects_non_function():
    result = nb05.squared_distance.check(3.0)
    assert not result
    assert "Expected a function" in result.message


# --- first_rise --------------------------------------------------------------


def test_first_rise_accepts_hand_answer():
    answer = first_rise_by_hand(256, 10000.0)
    assert nb05.first_rise.check(answer)
    # and the answer really is a rise after a descent
    assert f_by_hand(answer, 256, 10000.0) > f_by_hand(answer - 1, 256, 10000.0)
    assert all(f_by_hand(k, 256, 10000.0) < f_by_hand(k - 1, 256, 10000.0) for k in range(1, answer))


def test_first_rise_explains_off_by_one():
    result = nb05.first_rise.check(first_rise_by_hand(256, 10000.0) - 1)
    assert not result
    assert "k = j + 1" in result.message


def test_first_rise_explains_value_instead_of_offset():
    k = first_rise_by_hand(256, 10000.0)
    result = nb05.first_rise.check(f_by_hand(k, 256, 10000.0))
    assert not result
    assert "asks for the offset k" in result.message



def test_squared_distance_solution_defines_answer():
    # the printed solution ends with the line that hands the function to check()
    assert nb05.squared_distance._solution.rstrip().splitlines()[-1] == "answer = dist2"


@pytest.mark.parametrize("answer", [None, "256", True, 256 + 0j, [256], {256}])
def test_squared_norm_refuses_malformed_answers_with_a_message(answer):
    result = nb05.squared_norm.check(answer)
    assert not result
    assert "Expected a" in result.message


def test_first_rise_explains_the_answer_for_another_d():
    # 44 is the first rise at d = 512, the value notebook 05 prints: a likely copy
    at_512 = first_rise_by_hand(512, 10000.0)
    assert at_512 != first_rise_by_hand(256, 10000.0)
    result = nb05.first_rise.check(at_512)
    assert not result
    assert "d = 512" in result.message


def test_squared_distance_explains_an_ignored_base_and_a_flipped_sign():
    def fixed_base(k, d, b):
        return dist2_by_hand(k, d, 10000.0)

    def flipped(k, d, b):
        return -dist2_by_hand(k, d, b)

    assert "Use the base" in nb05.squared_distance.check(fixed_base).message
    assert "never negative" in nb05.squared_distance.check(flipped).message
