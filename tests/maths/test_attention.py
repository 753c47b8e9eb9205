"""Notebook 01's functions against hand-derived values."""

import math

import numpy as np

import pe_utils as pu


def test_permutation_matrix_hand_value():
    expected = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=float)
    np.testing.assert_array_equal(pu.permutation_matrix([1, 2, 0]), expected)


def test_permutation_matrix_reorders_rows_and_is_orthogonal():
    X = np.arange(12.0).reshape(4, 3)
    order = [2, 0, 3, 1]
    P = pu.permutation_matrix(order)
    np.testing.assert_array_equal(P @ X, X[order])
    np.testing.assert_array_equal(P.T @ P, np.eye(4))
    assert pu.permutation_matrix([]).shape == (0, 0)


def test_softmax_hand_values_and_stability():
    np.testing.assert_allclose(pu.softmax(np.array([0.0, math.log(3.0)])), [0.25, 0.75])
    # Huge scores would overflow exp without subtracting the maximum.
    np.testing.assert_allclose(pu.softmax(np.array([1000.0, 1000.0])), [0.5, 0.5])
    np.testing.assert_allclose(pu.softmax(np.array([0.0, -np.inf])), [1.0, 0.0])


def test_zero_query_weights_give_uniform_attention_and_mean_output():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(5, 4))
    W_q = np.zeros((4, 3))
    W_k = rng.normal(size=(4, 3))
    W_v = rng.normal(size=(4, 2))
    np.testing.assert_allclose(pu.attention_weights(X, W_q, W_k), np.full((5, 5), 0.2))
    expected = np.tile((X @ W_v).mean(axis=0), (5, 1))
    np.testing.assert_allclose(pu.self_attention(X, W_q, W_k, W_v), expected)


def test_attention_hand_case_two_tokens():
    # X = I₂, W_q = W_k = W_v = I₂: scores = I/√2, so each row is softmax([1/√2, 0]).
    eye = np.eye(2)
    a = 1 / (1 + math.exp(-1 / math.sqrt(2)))
    expected = np.array([[a, 1 - a], [1 - a, a]])
    np.testing.assert_allclose(pu.attention_weights(eye, eye, eye), expected)
    np.testing.assert_allclose(pu.self_attention(eye, eye, eye, eye), expected)


def test_causal_mask_first_token_sees_only_itself():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(4, 3))
    W_q, W_k, W_v = pu.fixed_weights(3)
    weights = pu.attention_weights(X, W_q, W_k, causal=True)
    np.testing.assert_allclose(np.triu(weights, k=1), 0.0)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)
    out = pu.self_attention(X, W_q, W_k, W_v, causal=True)
    np.testing.assert_allclose(out[0], X[0] @ W_v)


def test_attention_of_no_tokens_is_empty():
    W = np.ones((3, 2))
    assert pu.self_attention(np.zeros((0, 3)), W, W, W).shape == (0, 2)


def test_fixed_weights_are_reproducible_and_scaled():
    first, second = pu.fixed_weights(256, 8, 4, seed=3), pu.fixed_weights(256, 8, 4, seed=3)
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)
    assert [w.shape for w in first] == [(256, 8), (256, 8), (256, 4)]
    assert not np.array_equal(first[0], pu.fixed_weights(256, 8, 4, seed=4)[0])
    # Entries ~ N(0, 1/256): sample standard deviation close to 1/16.
    assert abs(np.concatenate([w.ravel() for w in first]).std() - 1 / 16) < 0.005


def test_token_embeddings_equal_words_equal_rows():
    tokens = ["the", "agent", "saw", "the", "developer"]
    table = pu.token_embeddings(tokens, 6)
    assert table.shape == (5, 6)
    np.testing.assert_array_equal(table[0], table[3])
    assert not np.allclose(table[1], table[4])
    # Swapping two words swaps their rows and nothing else.
    swapped = pu.token_embeddings(["the", "developer", "saw", "the", "agent"], 6)
    np.testing.assert_array_equal(swapped, table[[0, 4, 2, 3, 1]])
    assert not np.array_equal(pu.token_embeddings(tokens, 6, seed=1), table)
    assert pu.token_embeddings([], 4).shape == (0, 4)


def test_softmax_along_another_axis_and_of_nothing():
    # Columns [0, ln 3] and [ln 3, 0]: each column becomes [1/4, 3/4] or [3/4, 1/4].
    scores = np.array([[0.0, math.log(3.0)], [math.log(3.0), 0.0]])
    np.testing.assert_allclose(pu.softmax(scores, axis=0), [[0.25, 0.75], [0.75, 0.25]])
    np.testing.assert_allclose(pu.softmax(scores, axis=-1), [[0.25, 0.75], [0.75, 0.25]])
    assert pu.softmax(np.zeros((0, 3))).shape == (0, 3)


def test_causal_attention_hand_case():
    # X = I₂, all weights I₂: row 0 sees only token 0; row 1 is softmax([0, 1/√2]).
    eye = np.eye(2)
    a = 1 / (1 + math.exp(-1 / math.sqrt(2)))
    np.testing.assert_allclose(pu.attention_weights(eye, eye, eye, causal=True), [[1.0, 0.0], [1 - a, a]])
