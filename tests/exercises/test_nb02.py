"""The checkers of notebook 02 accept the right answers and explain the typical wrong ones.

Reference answers are computed here independently of the exercises' own ``expected``.
"""

import math

import numpy as np
import pytest

from pe_utils.exercises import nb02
from tests.exercise_contract import printed_solution_test

test_printed_solution_is_accepted = printed_solution_test(
    [
        nb02.bits_for_1000_positions,
        nb02.hamming_15_16,
        nb02.period_of_bit_9,
        nb02.angle_from_pair,
        nb02.position_on_circle,
    ]
)


# bits_for_1000_positions ----------------------------------------------------------


def test_bits_for_1000_accepts_smallest_count():
    bits = 0
    while 2**bits < 1000:  # smallest B with 2**B codes for 1000 positions
        bits += 1
    assert bits == 10
    assert nb02.bits_for_1000_positions.check(bits)
    assert nb02.bits_for_1000_positions.check(10.0)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [(9, "512"), (11, "one more"), (math.log2(1000), "round up"), (1000, "one-hot")],
)
def test_bits_for_1000_explains_mistakes(answer, phrase):
    result = nb02.bits_for_1000_positions.check(answer)
    assert not result
    assert phrase in result.message


# hamming_15_16 -------------------------------------------------------------------


def test_hamming_15_16_accepts_count_of_differing_bits():
    differing = sum(((15 >> b) & 1) != ((16 >> b) & 1) for b in range(8))
    assert differing == 5
    assert nb02.hamming_15_16.check(differing)


@pytest.mark.parametrize(("answer", "phrase"), [(1, "|p − q|"), (4, "fifth")])
def test_hamming_15_16_explains_mistakes(answer, phrase):
    result = nb02.hamming_15_16.check(answer)
    assert not result
    assert phrase in result.message


# period_of_bit_9 -----------------------------------------------------------------


def test_period_of_bit_9_accepts_smallest_period():
    wave = [(p >> 9) & 1 for p in range(4096)]
    period = next(t for t in range(1, 4096) if all(wave[p] == wave[p + t] for p in range(4096 - t)))
    assert period == 1024
    assert nb02.period_of_bit_9.check(period)


@pytest.mark.parametrize(
    ("answer", "phrase"), [(512, "2 · 512 = 1024"), (2048, "bit 10"), (1 / 1024, "frequency")]
)
def test_period_of_bit_9_explains_mistakes(answer, phrase):
    result = nb02.period_of_bit_9.check(answer)
    assert not result
    assert phrase in result.message


# angle_from_pair -----------------------------------------------------------------


def _angle_by_quadrant(s, c):
    """θ in [0, 2π) from the signs of sin and cos and one arccos (no arctan2)."""
    theta = np.arccos(np.clip(c, -1.0, 1.0))  # in [0, π]
    # below the x axis the angle is 2π − θ
    return np.where(np.asarray(s) >= 0, theta, 2 * np.pi - theta)


def test_angle_from_pair_accepts_correct_functions():
    thetas = np.array([0.5, 2.0, 3.5, 5.5])
    np.testing.assert_allclose(_angle_by_quadrant(np.sin(thetas), np.cos(thetas)), thetas, atol=1e-12)
    assert nb02.angle_from_pair.check(_angle_by_quadrant)
    # The natural answers pass: np.mod, %, or adding 2π to the negative angles.
    assert nb02.angle_from_pair.check(lambda s, c: np.mod(np.arctan2(s, c), 2 * np.pi))
    assert nb02.angle_from_pair.check(
        lambda s, c: np.where(np.arctan2(s, c) < 0, np.arctan2(s, c) + 2 * np.pi, np.arctan2(s, c))
    )
    assert nb02.angle_from_pair.check(lambda s, c: np.arctan2(s, c) % (2 * np.pi))


def test_angle_from_pair_reference_stays_in_zero_to_two_pi():
    # Every case's expected angle lies in [0, 2π).
    for s, c in nb02.angle_from_pair.cases:
        theta = np.asarray(nb02.angle_from_pair.reference(s, c))
        assert np.all((theta >= 0) & (theta < 2 * np.pi)), (s, c, theta)
    assert any(np.ndim(s) == 0 and s == 0.0 for s, _ in nb02.angle_from_pair.cases)  # θ = 0


@pytest.mark.parametrize("decimals", [1, 2, 3])
def test_angle_from_pair_refuses_a_rounded_angle(decimals):
    # The cases' angles have all their digits, so rounding the result is caught.
    result = nb02.angle_from_pair.check(lambda s, c: np.round(_angle_by_quadrant(s, c), decimals))
    assert not result


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (lambda s, c: np.abs(np.arctan2(s, c)), "sign of the sine"),
        (lambda s, c: np.arctan2(c, s), "swapped"),
    ],
)
def test_angle_from_pair_explains_more_mistakes(answer, phrase):
    result = nb02.angle_from_pair.check(answer)
    assert not result
    assert phrase in result.message, result.message


def test_angle_from_pair_cases_cover_all_quadrants():
    quadrants = set()
    for s, c in nb02.angle_from_pair.cases:
        for s_value, c_value in zip(np.atleast_1d(s), np.atleast_1d(c), strict=True):
            quadrants.add((bool(s_value > 0), bool(c_value > 0)))
    assert len(quadrants) == 4


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (lambda s, c: np.arcsin(s), "arcsin"),
        (lambda s, c: np.arccos(c), "arccos"),
        (lambda s, c: np.arctan2(s, c), "(−π, π]"),
        (lambda s, c: np.arctan2(c, s) % (2 * np.pi), "swapped"),
    ],
)
def test_angle_from_pair_explains_mistakes(answer, phrase):
    result = nb02.angle_from_pair.check(answer)
    assert not result
    assert phrase in result.message


def test_angle_from_pair_degrees_are_wrong():
    result = nb02.angle_from_pair.check(lambda s, c: np.degrees(np.arctan2(s, c)) % 360)
    assert not result
    assert "degrees" in result.message and "radians" in result.message


@pytest.mark.parametrize(
    "answer",
    [
        lambda s, c: math.atan2(s, c) % (2 * math.pi),
        lambda s, c: float(np.mod(np.arctan2(s, c), 2 * np.pi)),
        lambda s, c: np.arctan2(s, c) + (2 * np.pi if np.arctan2(s, c) < 0 else 0),
    ],
)
def test_angle_from_pair_tells_a_scalar_only_function_to_take_arrays(answer):
    # Each runs on the four single-angle cases and raises on the array of six angles.
    assert all(np.ndim(s) == 0 for s, _ in nb02.angle_from_pair.cases[:4])
    result = nb02.angle_from_pair.check(answer)
    assert not result
    assert result.message.startswith("Your function raised ")
    assert "ran on the single numbers" in result.message and "arrays too" in result.message


@pytest.mark.parametrize(
    ("exercise", "answer", "phrase"),
    [
        (nb02.bits_for_1000_positions, 1024, "number of different codes"),
        (nb02.period_of_bit_9, math.pi / 512, "angular frequency"),
        (nb02.period_of_bit_9, 0.006136, "angular frequency"),  # as rounded on screen
        (nb02.period_of_bit_9, 1023, "count the positions"),
    ],
)
def test_numbers_one_step_off_are_explained(exercise, answer, phrase):
    result = exercise.check(answer)
    assert not result
    assert phrase in result.message


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (lambda s, c: np.mod(-np.arctan2(s, c), 2 * np.pi), "clockwise"),
        (lambda s, c: np.arctan(s / c), "ratio"),
        (lambda s, c: np.mod(np.arctan(s / c), 2 * np.pi), "ratio"),
        (lambda s, c: np.arctan2(s, c) + 2 * np.pi, "positive ones"),
    ],
)
def test_angle_from_pair_explains_orientation_and_quadrant_mistakes(answer, phrase):
    result = nb02.angle_from_pair.check(answer)
    assert not result
    assert phrase in result.message


def test_angle_from_pair_accepts_a_function_that_changes_its_inputs_afterwards():
    def angle(s, c):
        theta = np.mod(np.arctan2(s, c), 2 * np.pi)
        if isinstance(s, np.ndarray):
            s[...] = 0.0  # vandalise the inputs after use
            c[...] = 1.0
        return theta

    assert nb02.angle_from_pair.check(angle)
    # ... and the cases are intact afterwards: a wrong function is still caught.
    assert not nb02.angle_from_pair.check(lambda s, c: np.arcsin(s))


# position_on_circle (the checkpoint: read a point off the circle) ------------------


def test_position_on_circle_accepts_the_lower_left_point():
    # By angles in degrees: both coordinates −√½ put the point at 225°, one step is 360°/16.
    degrees = math.degrees(math.atan2(-math.sqrt(0.5), -math.sqrt(0.5))) % 360
    assert degrees == pytest.approx(225)
    position = round(degrees / (360 / 16))
    assert position == 10
    assert math.cos(position * 2 * math.pi / 16) == pytest.approx(-0.7071, abs=5e-5)
    assert math.sin(position * 2 * math.pi / 16) == pytest.approx(-0.7071, abs=5e-5)
    assert nb02.position_on_circle.check(position)
    assert nb02.position_on_circle.check(10.0)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (14, "same sine"),
        (6, "same cosine"),
        (2, "opposite point"),
        (-6, "add one turn"),
        (5 * math.pi / 4, "radians"),
        (3.927, "radians"),  # as rounded on screen
        (225, "degrees"),
    ],
)
def test_position_on_circle_explains_mistakes(answer, phrase):
    result = nb02.position_on_circle.check(answer)
    assert not result
    assert phrase in result.message


def test_position_on_circle_refuses_neighbours_without_a_false_explanation():
    for answer in (9, 11):
        result = nb02.position_on_circle.check(answer)
        assert not result
        assert "hint()" in result.message


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (-3 * math.pi / 4, "np.arctan2's angle in radians"),
        (-2.356, "np.arctan2's angle in radians"),  # as rounded on screen
        (-135, "in degrees"),
    ],
)
def test_position_on_circle_explains_raw_arctan2_angles(answer, phrase):
    # np.arctan2(-√½, -√½) is −3π/4, i.e. −135°: the angle before it is wrapped into [0, 2π).
    assert math.isclose(math.atan2(-math.sqrt(0.5), -math.sqrt(0.5)), -3 * math.pi / 4)
    result = nb02.position_on_circle.check(answer)
    assert not result
    assert phrase in result.message
