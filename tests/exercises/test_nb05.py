"""The checkers of notebook 05 accept the reference answers and explain typical mistakes.

Reference values here are computed independently of pe_utils: with ``math``
and explicit loops over the pairs ``i``.
"""

import math

import numpy as np
import pytest

from pe_utils.exercises import nb05
from tests.exercise_contract import printed_solution_test


def f_by_hand(k, d_model, base):
    """Σ_i cos(k ω_i), ω_i = base^(−2i/d), by an explicit loop over the d/2 pairs."""
    return sum(math.cos(k * base ** (-2 * i / d_model)) for i in range(d_model // 2))


def pe_by_hand(p, d_model, base):
    """PE(p) by an explicit loop: entry 2i = sin(p ω_i), entry 2i+1 = cos(p ω_i)."""
    out = []
    for i in range(d_model // 2):
        angle = p * base ** (-2 * i / d_model)
        out += [math.sin(angle), math.cos(angle)]
    return np.array(out)


def first_rise_by_hand(d_model, base):
    k = 1
    while f_by_hand(k, d_model, base) <= f_by_hand(k - 1, d_model, base):
        k += 1
    return k


# The code that solution() prints, run with np and pe_utils in scope, passes check().
test_printed_solution_is_accepted = printed_solution_test(
    [nb05.same_offset, nb05.offset_from_dot, nb05.squared_distance, nb05.first_rise]
)


# --- same_offset (the checkpoint) ---------------------------------------------


def dot_by_hand(p, q, d_model, base=10000.0):
    """PE(p)·PE(q) from two encodings built by hand, not from f."""
    return float(pe_by_hand(p, d_model, base) @ pe_by_hand(q, d_model, base))


def test_same_offset_accepts_the_dot_product_of_hand_encodings():
    value = dot_by_hand(50, 43, 8)
    assert nb05.same_offset.check(value)
    assert nb05.same_offset.check(round(value, 4))
    # and it is the number section 1 prints for PE(3)·PE(10)
    assert round(dot_by_hand(3, 10, 8), 6) == 3.516271
    assert nb05.same_offset.check(3.516271)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (-dot_by_hand(3, 10, 8), "cos(−x) = cos(x)"),
        (f_by_hand(93, 8, 10000.0), "sum of the positions"),
        (4, "dot product of an encoding with itself"),
        (round(f_by_hand(50, 8, 10000.0), 4), "not the offset"),
    ],
    ids=["sign", "sum", "f0", "one-position"],
)
def test_same_offset_explains_mistakes(answer, phrase):
    result = nb05.same_offset.check(answer)
    assert not result
    assert phrase in result.message


def test_same_offset_wants_four_decimals():
    result = nb05.same_offset.check(3.52)
    assert not result
    assert "4 decimals" in result.message


# --- offset_from_dot -----------------------------------------------------------


def test_offset_from_dot_recovers_the_offset_of_hand_encodings():
    # the dot product given in the question is that of two encodings 17 apart, at any start
    for p in (0, 5, 900):
        assert round(dot_by_hand(p, p + 17, 16), 4) == 5.0548
    # and no other offset up to 40 comes within 0.1 of it
    others = [k for k in range(1, 41) if abs(f_by_hand(k, 16, 10000.0) - 5.0548) < 0.1]
    assert others == [17]
    assert nb05.offset_from_dot.check(17)
    assert "5.0548" in nb05.offset_from_dot.question


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [(-17, "cannot tell the order"), (16, "Off by one")],
)
def test_offset_from_dot_explains_mistakes(answer, phrase):
    result = nb05.offset_from_dot.check(answer)
    assert not result
    assert phrase in result.message


@pytest.mark.parametrize("answer", [None, "17", True, 17 + 0j, {17}])
def test_offset_from_dot_refuses_malformed_answers_with_a_message(answer):
    result = nb05.offset_from_dot.check(answer)
    assert not result
    assert "Expected a" in result.message


def test_offset_from_dot_wants_a_whole_number():
    assert not nb05.offset_from_dot.check(17.4)


# --- squared_distance --------------------------------------------------------


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
        "dot-product",
        "not-squared",
        "cross-term-once",
        "one-norm",
        "degrees",
        "dimension-index",
        "per-pair",
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
