"""Exercises of notebook 10, a head that learns to look back.

One causal head with one-hot values: ``o_p[v] = Σ_{q ≤ p, t_q = v} A_pq``, loss
``L_p = −log o_p[t_{p−k}]`` and ``∂L_p/∂s_pq = A_pq − R_pq``. Usage::

    from pe_utils.exercises import nb10
    answer = ...
    nb10.uniform_target_probability.check(answer)
"""

from __future__ import annotations

import numpy as np

from . import Exercise, FunctionExercise

# --- 1. uniform attention at p = k ------------------------------------------

uniform_target_probability = Exercise(
    question=(
        "Uniform attention (all scores equal) at position p = 2, with k = 2 and three different "
        "tokens t_0, t_1, t_2. What probability does the output o_2 give the target t_0? "
        "Give it to 4 decimals."
    ),
    expected=1.0 / 3.0,
    decimals=4,
    hint=(
        "The causal mask leaves positions 0, 1 and 2. Equal scores give each of them the same weight, "
        "and o_2[v] adds up the weights of the positions holding token v."
    ),
    solution=(
        "visible = 3            # positions 0, 1, 2 (causal mask)\n"
        "answer = 1 / visible   # t_0 is held by position 0 only"
    ),
    mistakes=[
        (
            1.0 / 8.0,
            "1/V would be a guess over the whole vocabulary. The head only mixes the tokens it can "
            "see: positions 0, 1 and 2.",
        ),
        (
            0.5,
            "The query's own position 2 is visible too (q ≤ p), so three positions share the weight.",
        ),
        (
            1.0,
            "That is what a perfect head gives. With equal scores the weight is shared by every "
            "visible position.",
        ),
    ],
)


# --- 2. the hand-built query map ----------------------------------------------


def _rotation_by_hand(k: float, d_model: int) -> np.ndarray:
    """``T_k`` from its blocks ``[[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]]`` (notebook 04)."""
    matrix = np.zeros((d_model, d_model))
    for i in range(d_model // 2):
        angle = k * 10000.0 ** (-2.0 * i / d_model)
        c, s = np.cos(angle), np.sin(angle)
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
    return matrix


def _reference_query_map(k: int, d_model: int) -> np.ndarray:
    """``W = T_{−k}ᵀ = T_k``: rows ``PE(p) W = (T_{−k} PE(p)ᵀ)ᵀ = PE(p − k)``."""
    return _rotation_by_hand(-k, d_model).T


def _forward_map(k: int, d_model: int) -> np.ndarray:
    return _rotation_by_hand(-k, d_model)


def _identity_map(k: int, d_model: int) -> np.ndarray:
    return np.eye(d_model)


QUERY_MAP_CASES = ((1, 4), (2, 8), (3, 16), (2, 16), (5, 6))

look_back_query_map = FunctionExercise(
    question=(
        "Write query_map(k, d_model) returning the d × d matrix W with PE[p] @ W == PE[p − k] for "
        "the rows of sinusoidal_pe (base 10000, interleaved). Use shift_matrix."
    ),
    reference=_reference_query_map,
    cases=QUERY_MAP_CASES,
    hint=(
        "For columns, PE(p − k) = T_{−k} PE(p) (notebook 04). A row vector is multiplied from the "
        "right, so transpose: PE[p] @ W with W = T_{−k}ᵀ."
    ),
    solution=(
        "def query_map(k, d_model):\n"
        "    return pe_utils.shift_matrix(-k, d_model).T   # T_{−k}ᵀ, which equals T_k\n"
        "answer = query_map"
    ),
    mistakes=[
        (
            _forward_map,
            "Your matrix sends PE[p] to PE[p + k]: it is T_{−k} itself, and rows need its transpose "
            "T_{−k}ᵀ (row @ M is Mᵀ applied to the column).",
        ),
        (
            _identity_map,
            "The identity keeps PE[p] where it is; the query must move back k positions.",
        ),
    ],
)


# --- 3. one row of the gradient -----------------------------------------------

score_gradient = Exercise(
    question=(
        "One query row with scores s = (0, 0, 0) over keys 0, 1, 2; only key 0 holds the target. "
        "Give ∂L/∂s for L = −log o[target] as a list of three numbers, each to 4 decimals."
    ),
    expected=[-2.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0],
    decimals=4,
    hint=(
        "∂L/∂s_q = A_q − R_q. Equal scores give A = (1/3, 1/3, 1/3); R is A restricted to the keys "
        "holding the target, renormalised."
    ),
    solution=(
        "A = np.full(3, 1 / 3)           # softmax of equal scores\n"
        "R = np.array([1.0, 0.0, 0.0])   # only key 0 holds the target\n"
        "answer = A - R"
    ),
    mistakes=[
        (
            [2.0 / 3.0, -1.0 / 3.0, -1.0 / 3.0],
            "The sign is flipped: that is R − A, the direction that lowers the loss (the negative "
            "gradient). The gradient is A − R.",
        ),
        (
            [-1.0, 0.0, 0.0],
            "That is −R only; the log-sum-exp over all visible keys adds +A.",
        ),
        (
            [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0],
            "That is A only; the target's term subtracts R.",
        ),
    ],
)

__all__ = ["look_back_query_map", "score_gradient", "uniform_target_probability"]
