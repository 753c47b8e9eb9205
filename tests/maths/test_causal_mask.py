"""What a causal mask leaves, as stated in notebook 01 §8, over random sizes and orders."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import pe_utils as pu


@st.composite
def _tokens_and_order(draw):
    n = draw(st.integers(min_value=1, max_value=7))
    d = draw(st.integers(min_value=1, max_value=6))
    seed = draw(st.integers(min_value=0, max_value=2**16))
    order = draw(st.permutations(list(range(n))))
    return n, d, seed, order


@settings(max_examples=80, deadline=None)
@given(_tokens_and_order())
def test_output_r_is_unchanged_when_the_prefix_is_reordered_around_a_fixed_token(case):
    n, d, seed, order = case
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W_q, W_k, W_v = pu.fixed_weights(d, seed=seed % 7)
    Y = pu.self_attention(X, W_q, W_k, W_v, causal=True)
    Y_perm = pu.self_attention(pu.permutation_matrix(order) @ X, W_q, W_k, W_v, causal=True)
    for r in range(n):
        if order[r] == r and sorted(order[: r + 1]) == list(range(r + 1)):
            np.testing.assert_allclose(Y_perm[r], Y[r], atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=1, max_value=4),
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=0, max_value=2**16),
)
def test_repeating_a_whole_prefix_does_not_change_the_last_output(n, copies, d, seed):
    # The last token sees the prefix `copies` times over: every count is multiplied alike,
    # so the softmax average, and the output, stay the same.
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W_q, W_k, W_v = pu.fixed_weights(d, seed=seed % 5)
    once = pu.self_attention(X, W_q, W_k, W_v, causal=True)[-1]
    repeated = pu.self_attention(np.tile(X, (copies, 1)), W_q, W_k, W_v, causal=True)[-1]
    np.testing.assert_allclose(repeated, once, atol=1e-12)


def test_identical_tokens_give_identical_causal_outputs():
    X = np.tile(np.array([[0.3, -1.2, 2.0]]), (5, 1))
    W_q, W_k, W_v = pu.fixed_weights(3)
    Y = pu.self_attention(X, W_q, W_k, W_v, causal=True)
    np.testing.assert_allclose(Y, np.tile(X[0] @ W_v, (5, 1)), atol=1e-12)
