"""The checkers of notebook 13 accept the reference answers and explain typical mistakes.

Reference values are derived here by hand (counting visible positions, sampling the score,
counting pairs), independently of pe_utils.frequency_use and of the exercise module's formulas.
"""

import math

import numpy as np
import pytest

from pe_utils.exercises import nb13
from tests.exercise_contract import printed_solution_test

EXERCISES = [
    nb13.start_token_weight,
    nb13.random_score_spread,
    nb13.slowest_rotating_wavelength,
    nb13.llama3_critical_dimension,
]

test_printed_solution_is_accepted = printed_solution_test(EXERCISES, ["answer"] * len(EXERCISES))


# --- start_token_weight ------------------------------------------------------------------------


def test_start_token_weight_is_one_over_the_visible_positions():
    visible = len(range(0, 9 + 1))  # positions 0 … 9 under the causal mask
    assert nb13.start_token_weight.check(1 / visible)
    assert nb13.start_token_weight.check(0.1)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [(1 / 9, "1/p"), (1 / 8, "vocabulary"), (1, "start token only")],
)
def test_start_token_weight_explains_mistakes(answer, phrase):
    result = nb13.start_token_weight.check(answer)
    assert not result and phrase in result.message


# --- random_score_spread ----------------------------------------------------------------------------


def test_random_score_spread_matches_a_sample():
    # 40 000 draws of q · R_100 κ at d = 64, rotation by hand: the sample's spread is close to 8
    # (standard error of a standard deviation: 8 / √(2 · 40 000) ≈ 0.03, so 0.1 is over 3 of them)
    rng = np.random.default_rng(0)
    q, kappa = rng.normal(size=(2, 40_000, 64))
    angles = 100 * 10000.0 ** (-np.arange(32) / 32)
    c, s = np.cos(angles), np.sin(angles)
    rotated = np.empty_like(kappa)
    rotated[:, 0::2] = c * kappa[:, 0::2] - s * kappa[:, 1::2]
    rotated[:, 1::2] = s * kappa[:, 0::2] + c * kappa[:, 1::2]
    spread = np.std(np.sum(q * rotated, axis=1))
    assert abs(spread - 8) < 0.1
    assert nb13.random_score_spread.check(8)
    assert nb13.random_score_spread.check(math.sqrt(64))


@pytest.mark.parametrize(
    ("answer", "phrase"), [(64, "variance"), (0, "mean"), (1, "one product"), (math.sqrt(32), "counts pairs")]
)
def test_random_score_spread_explains_mistakes(answer, phrase):
    result = nb13.random_score_spread.check(answer)
    assert not result and phrase in result.message


# --- slowest_rotating_wavelength ----------------------------------------------------------------------


def test_slowest_rotating_wavelength_by_counting_pairs():
    rotating = [i for i in range(256 // 2) if i < 0.25 * 256 / 2]  # pairs 0 … 31
    slowest = max(rotating)
    wavelength = 2 * math.pi / (1e6 ** (-2 * slowest / 256))
    assert slowest == 31 and round(wavelength, 1) == 178.4
    assert nb13.slowest_rotating_wavelength.check(178)
    assert nb13.slowest_rotating_wavelength.check(wavelength)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (2 * math.pi * 1e6 ** (62 / 64), "respaces the grid"),
        (2 * math.pi * 1e6 ** (64 / 256), "first unrotated"),
        (2 * math.pi * 1e6 ** (254 / 256), "full RoPE"),
        (1e6 ** (62 / 256), "1/ω"),  # pair 31's 1/ω: 28.4, the 2π forgotten
        (5.64e3, "K = p·d"),  # pair 63: 2π·10^(6·126/256) = 5 640
        (58.5, "base 10000"),
    ],  # 2π·10^(4·62/256) = 58.5
)
def test_slowest_rotating_wavelength_explains_mistakes(answer, phrase):
    result = nb13.slowest_rotating_wavelength.check(answer)
    assert not result and phrase in result.message


# --- llama3_critical_dimension ---------------------------------------------------------------------------


def test_llama3_critical_dimension_by_counting():
    pairs = sum(1 for i in range(64) if 2 * math.pi * 500000 ** (2 * i / 128) <= 8192)
    assert pairs == 35
    assert nb13.llama3_critical_dimension.check(2 * pairs)


@pytest.mark.parametrize(
    ("answer", "phrase"), [(35, "counts pairs"), (68, "not ⌊x⌋"), (88, "2π is missing"), (100, "base 10000")]
)
def test_llama3_critical_dimension_explains_mistakes(answer, phrase):
    result = nb13.llama3_critical_dimension.check(answer)
    assert not result and phrase in result.message


@pytest.mark.parametrize("exercise", EXERCISES)
@pytest.mark.parametrize("answer", ["0.1", None, [1, 2], float("nan"), True, 1j])
def test_odd_answers_get_a_message(exercise, answer):
    result = exercise.check(answer)
    assert not result and result.message
