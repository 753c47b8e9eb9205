"""The checkers of notebook 04 accept the reference answers and explain typical mistakes.

Reference values are derived here by hand (angle addition, ``math``), not read
from the exercise objects or from ``pe_utils``.
"""

import math

import numpy as np
import pytest

import pe_utils
from pe_utils.exercises import nb04

EXERCISES = [nb04.rotation_for_sin_cos, nb04.composed_offset, nb04.block_angle]


@pytest.mark.parametrize("exercise", EXERCISES)
def test_printed_solution_code_is_accepted(exercise):
    namespace = {"np": np}
    exec(exercise._solution, namespace)
    assert exercise.check(namespace["answer"])


# --- rotation_for_sin_cos ----------------------------------------------------


def rotation_by_hand(theta):
    # sin(α+θ) = cos θ · sin α + sin θ · cos α ;  cos(α+θ) = −sin θ · sin α + cos θ · cos α
    return np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])


def test_rotation_accepts_reference():
    assert nb04.rotation_for_sin_cos.check(rotation_by_hand)


def test_reference_rotation_really_shifts_a_pair():
    alpha, theta = 0.7, 1.9
    shifted = rotation_by_hand(theta) @ np.array([math.sin(alpha), math.cos(alpha)])
    np.testing.assert_allclose(shifted, [math.sin(alpha + theta), math.cos(alpha + theta)], atol=1e-15)
    np.testing.assert_allclose(pe_utils.shift_matrix(theta, 2), rotation_by_hand(theta), atol=1e-15)


def test_rotation_accepts_list_output():
    def as_lists(theta):
        return [[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]]

    assert nb04.rotation_for_sin_cos.check(as_lists)


@pytest.mark.parametrize(
    ("wrong", "phrase"),
    [
        (lambda t: rotation_by_hand(t).T, "textbook rotation"),
        (lambda t: rotation_by_hand(-t), "textbook rotation"),
        (lambda t: rotation_by_hand(t * math.pi / 180), "degrees"),
        (lambda t: rotation_by_hand(t * math.pi / 180).T, "Two slips"),
        (
            lambda t: np.array([[math.sin(t), math.cos(t)], [-math.cos(t), math.sin(t)]]),
            "sin and cos are swapped",
        ),
        (lambda t: rotation_by_hand(t)[::-1], "(cos, sin) order"),
    ],
)
def test_rotation_explains_mistakes(wrong, phrase):
    result = nb04.rotation_for_sin_cos.check(wrong)
    assert not result
    assert phrase in result.message


def test_rotation_rejects_non_function_and_wrong_shape():
    assert "Expected a function" in nb04.rotation_for_sin_cos.check(np.eye(2)).message
    flat = nb04.rotation_for_sin_cos.check(lambda t: rotation_by_hand(t).ravel())
    assert not flat
    assert "shape" in flat.message


def test_rotation_reports_a_crash():
    def broken(theta):
        raise RuntimeError("oops")

    result = nb04.rotation_for_sin_cos.check(broken)
    assert not result
    assert "RuntimeError" in result.message


# --- composed_offset -------------------------------------------------------------


def test_composed_offset_accepts_reference():
    # rotating by 3ω then by −5ω rotates by −2ω
    assert nb04.composed_offset.check(-2)
    assert nb04.composed_offset.check(-2.0)


def test_composed_offset_is_what_the_matrices_say():
    d = 8
    product = pe_utils.shift_matrix(3, d) @ pe_utils.shift_matrix(-5, d)
    np.testing.assert_allclose(product, pe_utils.shift_matrix(-2, d), atol=1e-14)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [(8, "You subtracted"), (-8, "b − a"), (-15, "do not multiply"), (2, "Mind the sign")],
)
def test_composed_offset_explains_mistakes(answer, phrase):
    result = nb04.composed_offset.check(answer)
    assert not result
    assert phrase in result.message


def test_composed_offset_generic_wrong_answer():
    result = nb04.composed_offset.check(5)
    assert not result
    assert "hint()" in result.message


# --- block_angle -------------------------------------------------------------------

# k = 7, i = 3, d = 16: θ = 7 · 10000^(−6/16) = 7 · 10^(−1.5)
ANGLE = 7 * 10**-1.5


def test_block_angle_accepts_reference():
    assert math.isclose(ANGLE, 0.22135943621178655, rel_tol=1e-12)
    assert nb04.block_angle.check(ANGLE)
    assert nb04.block_angle.check(round(ANGLE, 5))
    assert nb04.block_angle.check(0.2214)  # four significant digits


def test_block_angle_matches_the_matrix_entries():
    T = pe_utils.shift_matrix(7, 16)
    assert math.isclose(math.atan2(T[6, 7], T[6, 6]), ANGLE, rel_tol=1e-12)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (7 * 10**-1.0, "pair i − 1"),  # pair 2: 10000^(−4/16)
        (7 * 10**-2.0, "pair i + 1"),  # pair 4: 10000^(−8/16)
        (ANGLE * 180 / math.pi, "degrees"),
        (7 * 10**-0.75, "exponent is −i/d"),  # 10000^(−3/16)
        (7 * 10**-3.0, "dimension index 2i"),  # 10000^(−12/16)
        (10**-1.5, "angle for one step"),
        (-ANGLE, "Mind the sign"),
    ],
)
def test_block_angle_explains_mistakes(answer, phrase):
    result = nb04.block_angle.check(answer)
    assert not result
    assert phrase in result.message


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (7 * 10000.0 ** (-6 / 16), "Correct"),  # θ = k ω_3, by hand
        (0.2214, "Correct"),  # four significant digits
        (0.221, "Close"),
        ("0.2214", "without quotes"),
        (np.complex128(0.2214), "complex"),
        (np.bool_(True), "boolean"),
        (None, "None"),
        (10**400, "far too large"),
    ],
)
def test_block_angle_rounded_and_malformed_answers(answer, verdict):
    result = nb04.block_angle.check(answer)
    assert verdict in repr(result)
    assert bool(result) == (verdict == "Correct")


def test_rotation_messages_for_odd_functions():
    def flat(theta):
        c, s = math.cos(theta), math.sin(theta)
        return [c, s, -s, c]

    def two_arguments(theta, alpha):
        return np.eye(2)

    def as_matrix(theta):
        c, s = math.cos(theta), math.sin(theta)
        return np.matrix([[c, s], [-s, c]])

    assert "shape (2, 2)" in repr(nb04.rotation_for_sin_cos.check(flat))
    assert "raised TypeError" in repr(nb04.rotation_for_sin_cos.check(two_arguments))
    assert nb04.rotation_for_sin_cos.check(as_matrix)
