"""The checkers of notebook 04 accept the reference answers and explain typical mistakes.

Reference values are derived here by hand (angle addition, ``math``), not read
from the exercise objects or from ``pe_utils``.
"""

import math

import numpy as np
import pytest

import pe_utils
from pe_utils.exercises import nb04
from tests.exercise_contract import run_solution

EXERCISES = [nb04.rotation_for_sin_cos, nb04.shift_unknown_row, nb04.row_form_slip, nb04.block_angle]


@pytest.mark.parametrize("exercise", EXERCISES)
def test_printed_solution_code_is_accepted(exercise):
    # run in what the notebook's setup cell gives: np, pe_utils and its public names
    assert exercise.check(run_solution(exercise))


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


# --- shift_unknown_row (checkpoint) ----------------------------------------------


def turn_by_hand(row, angles):
    # per pair: sin(α+θ) = cos θ sin α + sin θ cos α ; cos(α+θ) = −sin θ sin α + cos θ cos α
    out = []
    for (s, c), theta in zip(np.reshape(row, (-1, 2)), angles, strict=True):
        out += [math.cos(theta) * s + math.sin(theta) * c, -math.sin(theta) * s + math.cos(theta) * c]
    return np.array(out)


OMEGA_D4 = [1.0, 10000 ** (-2 / 4)]  # ω_0, ω_1 for d = 4


def test_unknown_row_is_an_encoding_row_of_d_4():
    s0, c0, s1, c1 = nb04.unknown_row
    assert math.isclose(s0**2 + c0**2, 1, rel_tol=1e-12) and math.isclose(s1**2 + c1**2, 1, rel_tol=1e-12)
    # pair 1 turns 0.01 rad per position: its angle, mod 2π, times 100 is an angle of pair 0
    p = math.atan2(s1, c1) % (2 * math.pi) / OMEGA_D4[1]
    assert math.isclose(math.sin(p), s0, abs_tol=1e-9) and math.isclose(math.cos(p), c0, abs_tol=1e-9)


def test_unknown_row_cannot_be_changed_in_place():
    with pytest.raises(ValueError):
        nb04.unknown_row[0] = 0.0


def test_shift_unknown_row_accepts_reference_and_the_shifted_encoding():
    answer = turn_by_hand(nb04.unknown_row, [3 * w for w in OMEGA_D4])
    assert nb04.shift_unknown_row.check(answer)
    assert nb04.shift_unknown_row.check(answer.round(4))
    assert nb04.shift_unknown_row.check(list(answer))
    # the same as evaluating the formula at p + 3, with p recovered from pair 1
    p = math.atan2(nb04.unknown_row[2], nb04.unknown_row[3]) % (2 * math.pi) / OMEGA_D4[1]
    assert nb04.shift_unknown_row.check(pe_utils.encode_positions(np.array([p + 3]), 4)[0])
    assert nb04.shift_unknown_row.check(pe_utils.shift_matrix(3, 4) @ nb04.unknown_row)


def test_shift_unknown_row_from_the_printed_row():
    # the notebook prints x to 8 decimals: a learner who computes from them and rounds the
    # result to 4 decimals passes; from 4 printed decimals the last digit can be off by one
    shift = [3 * w for w in OMEGA_D4]
    from_8 = turn_by_hand(nb04.unknown_row.round(8), shift).round(4)
    assert nb04.shift_unknown_row.check(from_8)
    from_4 = turn_by_hand(nb04.unknown_row.round(4), shift).round(4)
    assert not nb04.shift_unknown_row.check(from_4)


@pytest.mark.parametrize(
    ("angles", "phrase"),
    [
        ([-3 * w for w in OMEGA_D4], "PE(p − 3)"),
        ([3.0, 3.0], "Both pairs turned by 3 radians"),
        ([3.0, 3 * 10000 ** (-1 / 4)], "exponent is −2i/d"),
        ([0.0, 0.0], "PE(p) itself"),
    ],
)
def test_shift_unknown_row_explains_mistakes(angles, phrase):
    result = nb04.shift_unknown_row.check(turn_by_hand(nb04.unknown_row, angles))
    assert not result
    assert phrase in result.message


def test_shift_unknown_row_row_times_matrix_is_the_backward_shift():
    result = nb04.shift_unknown_row.check(nb04.unknown_row @ pe_utils.shift_matrix(3, 4))
    assert not result
    assert "x @ T_k" in result.message


def test_shift_unknown_row_wrong_shape_and_close():
    answer = turn_by_hand(nb04.unknown_row, [3 * w for w in OMEGA_D4])
    assert "shape" in nb04.shift_unknown_row.check(answer[:2]).message
    assert not nb04.shift_unknown_row.check(answer.round(2))


# --- row_form_slip ----------------------------------------------------------------


def test_row_form_slip_is_what_the_table_says():
    n, d, k = 40, 8, 5
    table = pe_utils.sinusoidal_pe(n, d)
    shifted = table[: n - k] @ pe_utils.shift_matrix(k, d)
    # row p of shifted, against the formula evaluated at p − 5 (by hand, no pe_utils)
    p = np.arange(n - k)[:, None]
    omega = 10000.0 ** (-2 * np.arange(d // 2) / d)
    by_hand = np.empty((n - k, d))
    by_hand[:, 0::2], by_hand[:, 1::2] = np.sin((p - k) * omega), np.cos((p - k) * omega)
    np.testing.assert_allclose(shifted, by_hand, atol=1e-12)
    assert nb04.row_form_slip.check(-5)
    assert nb04.row_form_slip.check(-5.0)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (5, "what the colleague wanted"),
        (0, "not the identity"),
        (-10, "j counts from p"),
        (10, "j is negative"),
    ],
)
def test_row_form_slip_explains_mistakes(answer, phrase):
    result = nb04.row_form_slip.check(answer)
    assert not result
    assert phrase in result.message


def test_row_form_slip_generic_wrong_answer():
    result = nb04.row_form_slip.check(3)
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
