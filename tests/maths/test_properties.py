"""Property-based tests: every identity of the course over random sizes, bases and positions."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import pe_utils as pu
from tests.strategies import bases, d_models, integer_positions, layouts, offsets, positions

ATOL = 1e-9


@given(d=d_models, base=bases)
def test_frequencies_are_a_geometric_sequence_from_one(d, base):
    omega = pu.frequencies(d, base)
    assert omega.shape == (d // 2,) and omega[0] == 1.0
    # ω_{i+1} / ω_i = base^(−2/d) for every i, so ω_{d/2−1} = base^(−(d−2)/d).
    np.testing.assert_allclose(omega[1:] / omega[:-1], base ** (-2 / d), rtol=1e-12)
    np.testing.assert_allclose(omega[-1], base ** (-(d - 2) / d), rtol=1e-12)
    # λ_i ω_i = 2π: λ runs from 2π up to just under 2π·base.
    lam = pu.wavelengths(d, base)
    np.testing.assert_allclose(lam * omega, 2 * np.pi, rtol=1e-15)
    assert lam[0] == 2 * np.pi and lam[-1] < 2 * np.pi * base


@given(d=d_models, base=bases, p=st.lists(positions, min_size=1, max_size=20), layout=layouts)
def test_values_bounded_and_norm_is_half_d(d, base, p, layout):
    rows = pu.encode_positions(p, d, base=base, layout=layout)
    assert np.all(np.abs(rows) <= 1.0)
    np.testing.assert_allclose(np.sum(rows**2, axis=-1), d / 2, rtol=1e-12)


@given(d=d_models, base=bases, p=positions, k=positions, layout=layouts)
def test_shift_matrix_moves_any_position(d, base, p, k, layout):
    T = pu.shift_matrix(k, d, base=base, layout=layout)
    before = pu.encode_positions(p, d, base=base, layout=layout)
    after = pu.encode_positions(p + k, d, base=base, layout=layout)
    np.testing.assert_allclose(T @ before, after, atol=ATOL)


@given(d=d_models, base=bases, a=offsets, b=offsets, layout=layouts)
def test_shift_matrices_form_a_group(d, base, a, b, layout):
    T_a = pu.shift_matrix(a, d, base=base, layout=layout)
    T_b = pu.shift_matrix(b, d, base=base, layout=layout)
    eye = np.eye(d)
    np.testing.assert_allclose(T_a.T @ T_a, eye, atol=1e-12)  # orthogonal
    np.testing.assert_allclose(T_a @ T_b, pu.shift_matrix(a + b, d, base=base, layout=layout), atol=ATOL)
    np.testing.assert_allclose(pu.shift_matrix(-a, d, base=base, layout=layout), T_a.T, atol=1e-12)
    np.testing.assert_array_equal(pu.shift_matrix(0, d, base=base, layout=layout), eye)


@given(d=d_models, base=bases, p=st.lists(positions, min_size=1, max_size=10), k=offsets, layout=layouts)
def test_shift_agrees_with_shift_matrix(d, base, p, k, layout):
    rows = pu.encode_positions(p, d, base=base, layout=layout)
    T = pu.shift_matrix(k, d, base=base, layout=layout)
    np.testing.assert_allclose(pu.shift(rows, k, base=base, layout=layout), rows @ T.T, atol=1e-12)


@given(d=d_models, base=bases, p=positions, q=positions, layout=layouts)
def test_dot_product_depends_on_offset_only(d, base, p, q, layout):
    rows = pu.encode_positions([p, q], d, base=base, layout=layout)
    np.testing.assert_allclose(rows[0] @ rows[1], pu.similarity_profile(q - p, d, base=base), atol=ATOL)


@given(d=d_models, base=bases, k=positions)
def test_profile_is_even_and_peaks_at_zero(d, base, k):
    f_k, f_minus_k, f_0 = pu.similarity_profile([k, -k, 0.0], d, base=base)
    np.testing.assert_allclose(f_k, f_minus_k, atol=ATOL)
    assert f_0 == d / 2  # Σ_i cos 0 = d/2, exactly
    assert f_k <= d / 2 + 1e-12


@given(n=st.integers(0, 12), seed=st.integers(0, 2**16))
def test_permutation_matrix_reorders_rows_and_is_orthogonal(n, seed):
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    X = rng.normal(size=(n, 3))
    P = pu.permutation_matrix(order)
    np.testing.assert_array_equal(P @ X, X[order])
    np.testing.assert_array_equal(P.T @ P, np.eye(n))
    np.testing.assert_array_equal(P.T, pu.permutation_matrix(np.argsort(order)))  # P⁻¹ = Pᵀ


@given(
    shape=st.tuples(st.integers(1, 5), st.integers(1, 5)),
    axis=st.sampled_from([0, 1, -1]),
    shift=st.floats(-1e3, 1e3),
    seed=st.integers(0, 2**16),
)
def test_softmax_is_a_distribution_unchanged_by_adding_a_constant(shape, axis, shift, seed):
    scores = np.random.default_rng(seed).normal(scale=5.0, size=shape)
    weights = pu.softmax(scores, axis=axis)
    assert np.all(weights > 0)
    np.testing.assert_allclose(weights.sum(axis=axis), 1.0, rtol=1e-12)
    np.testing.assert_allclose(pu.softmax(scores + shift, axis=axis), weights, rtol=1e-9, atol=1e-15)
    # Ratios of weights are exponentials of score differences: w_a / w_b = exp(s_a − s_b).
    first, last = np.take(weights, 0, axis=axis), np.take(weights, -1, axis=axis)
    gap = np.take(scores, 0, axis=axis) - np.take(scores, -1, axis=axis)
    np.testing.assert_allclose(first / last, np.exp(gap), rtol=1e-9)


@given(d=d_models, base=bases, n=st.integers(0, 40))
def test_layouts_differ_exactly_by_the_permutation(d, base, n):
    order = pu.layout_permutation(d)
    inter = pu.sinusoidal_pe(n, d, base=base)
    concat = pu.sinusoidal_pe(n, d, base=base, layout="concatenated")
    np.testing.assert_array_equal(inter[:, order], concat)
    np.testing.assert_array_equal(np.sort(order), np.arange(d))


@given(d=d_models, base=bases, start=integer_positions, n=st.integers(0, 30))
def test_table_rows_are_encode_positions(d, base, start, n):
    table = pu.sinusoidal_pe(start + n, d, base=base)
    np.testing.assert_allclose(
        table[start:], pu.encode_positions(np.arange(start, start + n), d, base=base), atol=ATOL
    )


@given(
    n=st.integers(1, 12),
    d=st.integers(1, 6),
    d_k=st.integers(1, 5),
    seed=st.integers(0, 2**16),
    causal=st.booleans(),
)
def test_attention_is_permutation_equivariant_unless_causal(n, d, d_k, seed, causal):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W_q, W_k, W_v = rng.normal(size=(3, d, d_k))
    P = pu.permutation_matrix(rng.permutation(n))
    if not causal:
        np.testing.assert_allclose(
            pu.self_attention(P @ X, W_q, W_k, W_v), P @ pu.self_attention(X, W_q, W_k, W_v), atol=1e-10
        )
    weights = pu.attention_weights(X, W_q, W_k, causal=causal)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)


@given(n=st.integers(3, 10), half_d=st.integers(1, 8), seed=st.integers(0, 2**16))
def test_positional_encoding_breaks_equivariance(n, half_d, seed):
    d = 2 * half_d
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W_q, W_k, W_v = pu.fixed_weights(d, seed=seed)
    order = np.roll(np.arange(n), 1)  # a cyclic shift moves every token
    P = pu.permutation_matrix(order)
    pe = pu.sinusoidal_pe(n, d)
    moved = pu.self_attention(P @ X + pe, W_q, W_k, W_v)
    expected = P @ pu.self_attention(X + pe, W_q, W_k, W_v)
    assert not np.allclose(moved, expected, atol=1e-6)


@given(n=st.integers(2, 10), d=st.integers(1, 5), seed=st.integers(0, 2**16))
def test_causal_attention_is_not_equivariant(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W_q, W_k, W_v = rng.normal(size=(3, d, d))
    reverse = pu.permutation_matrix(np.arange(n)[::-1])
    out = pu.self_attention(reverse @ X, W_q, W_k, W_v, causal=True)
    # Reversed, the last token sees everything; before, the first token saw only itself.
    # Generic inputs make their outputs differ, so the rows are not merely permuted.
    assert not np.allclose(out, reverse @ pu.self_attention(X, W_q, W_k, W_v, causal=True), atol=1e-8)


@given(n=st.integers(0, 300), n_bits=st.integers(0, 12))
def test_binary_codes_rebuild_positions(n, n_bits):
    bits = max(n_bits, max(1, (n - 1).bit_length()))
    codes = pu.binary_codes(n, bits)
    np.testing.assert_array_equal(codes @ (2 ** np.arange(bits)), np.arange(n))


@given(
    d=d_models,
    base=bases,
    n=st.integers(0, 3000),
    build=st.sampled_from([pu.sinusoidal_pe, pu.sinusoidal_pe_fast]),
)
def test_every_builder_stays_within_minus_one_and_one(d, base, n, build):
    table = build(n, d, base=base)
    assert np.all(np.abs(table) <= 1.0)
    np.testing.assert_allclose(np.sum(table**2, axis=1), d / 2, rtol=1e-12)
