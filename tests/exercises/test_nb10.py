"""The checkers of notebook 10 accept the reference answers and explain typical mistakes.

Reference values are derived here by hand (explicit softmax, explicit rotations),
independently of pe_utils.training.
"""

import math

import numpy as np
import pytest

from pe_utils.exercises import nb10
from tests.exercise_contract import printed_solution_test

test_printed_solution_is_accepted = printed_solution_test(
    [nb10.uniform_target_probability, nb10.look_back_query_map, nb10.score_gradient],
    ["answer", "answer", "answer"],
)


# --- uniform_target_probability ---------------------------------------------------


def test_uniform_probability_accepts_one_third():
    assert nb10.uniform_target_probability.check(1 / 3)
    assert nb10.uniform_target_probability.check(0.3333333333)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [(1 / 8, "whole vocabulary"), (0.5, "own position"), (1, "perfect head")],
)
def test_uniform_probability_explains_mistakes(answer, phrase):
    result = nb10.uniform_target_probability.check(answer)
    assert not result
    assert phrase in result.message


@pytest.mark.parametrize("answer", ["a third", None, [1 / 3, 1 / 3], float("nan")])
def test_uniform_probability_odd_answers_do_not_crash(answer):
    result = nb10.uniform_target_probability.check(answer)
    assert not result
    assert result.message


# --- look_back_query_map -----------------------------------------------------------


def pe_by_hand(p, d_model):
    out = []
    for i in range(d_model // 2):
        angle = p * 10000.0 ** (-2 * i / d_model)
        out += [math.sin(angle), math.cos(angle)]
    return np.array(out)


def test_query_map_reference_moves_rows_back_by_k():
    for k, d_model in nb10.QUERY_MAP_CASES:
        W = nb10.look_back_query_map.reference(k, d_model)
        for p in (k, k + 3, 50):
            np.testing.assert_allclose(pe_by_hand(p, d_model) @ W, pe_by_hand(p - k, d_model), atol=1e-12)


def test_query_map_explains_mistakes():
    import pe_utils

    forward = nb10.look_back_query_map.check(lambda k, d: pe_utils.shift_matrix(-k, d))
    assert not forward and "PE[p + k]" in forward.message
    identity = nb10.look_back_query_map.check(lambda k, d: np.eye(d))
    assert not identity and "identity" in identity.message


@pytest.mark.parametrize(
    "answer",
    [42, "shift_matrix", lambda k, d: np.zeros((2, 2)), lambda k, d: 1 / 0, lambda k: np.eye(4)],
)
def test_query_map_odd_answers_do_not_crash(answer):
    result = nb10.look_back_query_map.check(answer)
    assert not result
    assert result.message


# --- score_gradient ------------------------------------------------------------------


def test_score_gradient_by_finite_differences():
    def loss(s):
        weights = np.exp(s) / np.exp(s).sum()
        return -math.log(weights[0])

    h = 1e-6
    numeric = [(loss(np.eye(3)[j] * h) - loss(-np.eye(3)[j] * h)) / (2 * h) for j in range(3)]
    assert nb10.score_gradient.check(numeric)
    assert nb10.score_gradient.check(np.array(numeric))


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [([2 / 3, -1 / 3, -1 / 3], "sign is flipped"), ([-1, 0, 0], "−R only"), ([1 / 3] * 3, "A only")],
)
def test_score_gradient_explains_mistakes(answer, phrase):
    result = nb10.score_gradient.check(answer)
    assert not result
    assert phrase in result.message


@pytest.mark.parametrize("answer", [[-2 / 3, 1 / 3], "A - R", -2 / 3, [[-2 / 3, 1 / 3, 1 / 3]]])
def test_score_gradient_odd_answers_do_not_crash(answer):
    result = nb10.score_gradient.check(answer)
    assert not result
    assert result.message
