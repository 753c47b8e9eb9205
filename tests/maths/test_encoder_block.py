"""Notebook 01's encoder block: LayerNorm, feed-forward, the block, stacked.

Expected values are derived by hand (small cases) or from the definition
written out independently of pe_utils; the property tests check permutation
equivariance over random sizes, weights and permutations.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pe_utils as pu


def test_layer_norm_hand_value():
    # Row (1, 2, 3): mean 2, biased variance 2/3, so (x − 2)/√(2/3 + eps).
    eps = 1e-5
    scale = 1 / math.sqrt(2 / 3 + eps)
    np.testing.assert_allclose(pu.layer_norm([[1.0, 2.0, 3.0]]), [[-scale, 0.0, scale]])
    # Gain and bias act per feature after the normalisation.
    out = pu.layer_norm([[1.0, 2.0, 3.0]], gain=[2.0, 1.0, -1.0], bias=[0.0, 5.0, 1.0])
    np.testing.assert_allclose(out, [[-2 * scale, 5.0, 1 - scale]])


def test_layer_norm_rows_have_mean_zero_and_variance_near_one():
    X = np.random.default_rng(3).normal(loc=4.0, scale=3.0, size=(6, 10))
    out = pu.layer_norm(X, eps=1e-12)
    np.testing.assert_allclose(out.mean(axis=1), 0.0, atol=1e-12)
    np.testing.assert_allclose(out.var(axis=1), 1.0, rtol=1e-9)


def test_layer_norm_constant_row_gives_bias():
    out = pu.layer_norm([[7.0, 7.0, 7.0]], gain=[3.0, 3.0, 3.0], bias=[1.0, 2.0, 3.0])
    np.testing.assert_allclose(out, [[1.0, 2.0, 3.0]])


def test_feed_forward_hand_value():
    # x = (1, −2); x W_1 + b_1 = (1 − 2 + 0.5, −(−2)·1 − 1) = (−0.5, 1): ReLU gives (0, 1).
    W_1 = np.array([[1.0, 0.0], [1.0, -1.0]])
    b_1 = np.array([0.5, -1.0])
    W_2 = np.array([[10.0], [3.0]])
    b_2 = np.array([0.25])
    np.testing.assert_allclose(pu.feed_forward([[1.0, -2.0]], W_1, b_1, W_2, b_2), [[3.25]])


def test_encoder_weights_shapes_and_seeds():
    weights = pu.encoder_weights(6, d_ff=10, seed=2)
    shapes = {name: np.shape(value) for name, value in weights._asdict().items()}
    assert shapes == {
        "W_q": (6, 6),
        "W_k": (6, 6),
        "W_v": (6, 6),
        "gain_1": (6,),
        "bias_1": (6,),
        "W_1": (6, 10),
        "b_1": (10,),
        "W_2": (10, 6),
        "b_2": (6,),
        "gain_2": (6,),
        "bias_2": (6,),
    }
    # The attention weights are fixed_weights' own; the same seed gives the same block.
    for mine, theirs in zip(weights[:3], pu.fixed_weights(6, seed=2), strict=True):
        np.testing.assert_array_equal(mine, theirs)
    for a, b in zip(weights, pu.encoder_weights(6, d_ff=10, seed=2), strict=True):
        np.testing.assert_array_equal(a, b)
    assert not np.allclose(weights.W_1, pu.encoder_weights(6, d_ff=10, seed=3).W_1)
    assert pu.encoder_weights(3).W_1.shape == (3, 12)  # d_ff defaults to 4 d_model


def _block_by_definition(X, w, causal=False):
    # Written out from the definition, independently of pe_utils' helpers.
    Q, K, V = X @ w.W_q, X @ w.W_k, X @ w.W_v
    S = Q @ K.T / math.sqrt(w.W_q.shape[1])
    if causal:
        S = np.where(np.tril(np.ones_like(S)) == 1, S, -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)

    def norm(Z, gain, bias):
        centred = Z - Z.mean(axis=1, keepdims=True)
        return centred / np.sqrt((centred**2).mean(axis=1, keepdims=True) + 1e-5) * gain + bias

    H = norm(X + A @ V, w.gain_1, w.bias_1)
    F = np.maximum(H @ w.W_1 + w.b_1, 0) @ w.W_2 + w.b_2
    return norm(H + F, w.gain_2, w.bias_2)


@pytest.mark.parametrize("causal", [False, True])
def test_encoder_block_matches_definition(causal):
    X = np.random.default_rng(4).normal(size=(5, 8))
    weights = pu.encoder_weights(8, seed=1)
    np.testing.assert_allclose(
        pu.encoder_block(X, weights, causal=causal), _block_by_definition(X, weights, causal), atol=1e-12
    )


def test_causal_block_is_not_equivariant():
    X = np.random.default_rng(5).normal(size=(4, 6))
    weights = pu.encoder_weights(6)
    P = pu.permutation_matrix([3, 1, 0, 2])
    left = pu.encoder_block(P @ X, weights, causal=True)
    assert not np.allclose(left, P @ pu.encoder_block(X, weights, causal=True))


@st.composite
def _permuted_inputs(draw):
    n = draw(st.integers(min_value=1, max_value=7))
    d = draw(st.integers(min_value=1, max_value=9))
    seed = draw(st.integers(min_value=0, max_value=2**16))
    order = draw(st.permutations(list(range(n))))
    depth = draw(st.integers(min_value=1, max_value=3))
    return n, d, seed, order, depth


@settings(max_examples=60, deadline=None)
@given(_permuted_inputs())
def test_stacked_encoder_blocks_are_permutation_equivariant(case):
    n, d, seed, order, depth = case
    rng = np.random.default_rng(seed)
    X = rng.normal(scale=2.0, size=(n, d))
    blocks = [pu.encoder_weights(d, d_ff=2 * d + 1, seed=seed + layer) for layer in range(depth)]
    P = pu.permutation_matrix(order)
    Y, Y_perm = X, P @ X
    for weights in blocks:
        Y, Y_perm = pu.encoder_block(Y, weights), pu.encoder_block(Y_perm, weights)
    np.testing.assert_allclose(Y_perm, P @ Y, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=0, max_value=2**16),
    st.data(),
)
def test_per_token_layers_are_equivariant(n, d, seed, data):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    P = pu.permutation_matrix(data.draw(st.permutations(list(range(n)))))
    gain, bias = rng.normal(size=d), rng.normal(size=d)
    np.testing.assert_allclose(pu.layer_norm(P @ X, gain, bias), P @ pu.layer_norm(X, gain, bias), atol=1e-12)
    W_1, b_1 = rng.normal(size=(d, 5)), rng.normal(size=5)
    W_2, b_2 = rng.normal(size=(5, 3)), rng.normal(size=3)
    np.testing.assert_allclose(
        pu.feed_forward(P @ X, W_1, b_1, W_2, b_2), P @ pu.feed_forward(X, W_1, b_1, W_2, b_2), atol=1e-12
    )


WEIGHTS = pu.encoder_weights(3, d_ff=4)
ROW = np.ones((2, 3))
FF = (np.ones((3, 4)), np.ones(4), np.ones((4, 3)), np.ones(3))  # W_1, b_1, W_2, b_2 that fit ROW


@pytest.mark.parametrize(
    ("call", "error", "names"),
    [
        (lambda: pu.layer_norm(np.ones(3)), ValueError, "X"),
        (lambda: pu.layer_norm(np.ones((2, 0))), ValueError, "X"),
        (lambda: pu.layer_norm(ROW, gain=np.ones(2)), ValueError, "gain"),
        (lambda: pu.layer_norm(ROW, bias=[[0.0, 0.0, 0.0]]), ValueError, "bias"),
        (lambda: pu.layer_norm(ROW, gain=["a", "b", "c"]), TypeError, "gain"),
        (lambda: pu.layer_norm(ROW, eps=0.0), ValueError, "eps"),
        (lambda: pu.layer_norm(ROW, eps=True), TypeError, "eps"),
        (lambda: pu.layer_norm(ROW, eps="small"), TypeError, "eps"),
        (lambda: pu.layer_norm([[np.nan, 1.0]]), ValueError, "X"),
        (lambda: pu.feed_forward(ROW, np.ones((2, 4)), *FF[1:]), ValueError, "W_1"),
        (lambda: pu.feed_forward(ROW, FF[0], FF[1], np.ones((5, 3)), FF[3]), ValueError, "W_2"),
        (lambda: pu.feed_forward(ROW, FF[0], np.ones(3), *FF[2:]), ValueError, "b_1"),
        (lambda: pu.feed_forward(ROW, *FF[:3], np.ones(2)), ValueError, "b_2"),
        (lambda: pu.feed_forward(ROW, FF[0], FF[1], FF[2], "b"), TypeError, "b_2"),
        (lambda: pu.encoder_weights(0), ValueError, "d_model"),
        (lambda: pu.encoder_weights(4, d_ff=0), ValueError, "d_ff"),
        (lambda: pu.encoder_weights(4, d_ff=2.5), TypeError, "d_ff"),
        (lambda: pu.encoder_weights(4, seed=-1), ValueError, "seed"),
        (lambda: pu.encoder_block(ROW, pu.fixed_weights(3)), TypeError, "weights"),
        (lambda: pu.encoder_block(np.ones((2, 4)), WEIGHTS), ValueError, "X"),
        (lambda: pu.encoder_block(np.ones(3), WEIGHTS), ValueError, "X"),
        (lambda: pu.encoder_block(ROW, WEIGHTS._replace(W_v=np.ones((3, 2)))), ValueError, "W_v"),
        (lambda: pu.encoder_block(ROW, WEIGHTS, causal="no"), TypeError, "causal"),
    ],
)
def test_bad_input(call, error, names):
    with pytest.raises(error, match=names):
        call()
