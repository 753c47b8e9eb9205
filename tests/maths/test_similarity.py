"""``commuting_part`` (notebook 05): the part of ``W_q W_kᵀ`` that commutes with every ``T_k``.

Expected values are derived here independently: by hand for small matrices, and
as the orthogonal projection onto the null space of ``M ↦ M T_1 − T_1 M``,
computed by SVD without knowing the block form.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pe_utils as pu
from tests.strategies import bases, offsets

small_d = st.integers(min_value=1, max_value=8).map(lambda half: 2 * half)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def commutant_projection_by_svd(matrix, base):
    """Project ``matrix`` onto ``{C : C T_1 = T_1 C}``, the null space found by SVD."""
    d = matrix.shape[0]
    t1 = pu.shift_matrix(1, d, base=base)
    identity = np.eye(d)
    # Row-major vec: vec(A M B) = (A ⊗ Bᵀ) vec(M).
    linear_map = np.kron(identity, t1.T) - np.kron(t1, identity)
    _, singular, vt = np.linalg.svd(linear_map)
    null_space = vt[singular < 1e-9 * singular.max()]
    return (null_space.T @ (null_space @ matrix.reshape(-1))).reshape(d, d), null_space.shape[0]


def test_two_by_two_by_hand():
    # a = (1 + 4) / 2, b = (2 − 3) / 2
    expected = np.array([[2.5, -0.5], [0.5, 2.5]])
    np.testing.assert_array_equal(pu.commuting_part([[1.0, 2.0], [3.0, 4.0]]), expected)


def test_off_diagonal_blocks_are_dropped():
    matrix = np.arange(16.0).reshape(4, 4)
    expected = np.zeros((4, 4))
    expected[:2, :2] = [[2.5, -1.5], [1.5, 2.5]]  # a = (0 + 5) / 2, b = (1 − 4) / 2
    expected[2:, 2:] = [[12.5, -1.5], [1.5, 12.5]]  # a = (10 + 15) / 2, b = (11 − 14) / 2
    np.testing.assert_array_equal(pu.commuting_part(matrix), expected)


def test_scaled_rotations_are_kept_unchanged():
    rotation = 3.0 * pu.shift_matrix(2.7, 6)
    np.testing.assert_allclose(pu.commuting_part(rotation), rotation, atol=1e-15)


@settings(max_examples=40, deadline=None)
@given(d=small_d, base=bases, seed=seeds)
def test_equals_the_projection_onto_the_null_space(d, base, seed):
    matrix = np.random.default_rng(seed).normal(size=(d, d))
    projection, dimension = commutant_projection_by_svd(matrix, base)
    assert dimension == d  # two dimensions (a_i, b_i) per pair
    np.testing.assert_allclose(pu.commuting_part(matrix), projection, atol=1e-9)


@settings(deadline=None)
@given(d=small_d, base=bases, seed=seeds, k=offsets)
def test_commutes_with_every_shift_and_is_a_projection(d, base, seed, k):
    matrix = np.random.default_rng(seed).normal(size=(d, d))
    part = pu.commuting_part(matrix)
    t_k = pu.shift_matrix(k, d, base=base)
    np.testing.assert_allclose(part @ t_k, t_k @ part, atol=1e-9)
    np.testing.assert_allclose(pu.commuting_part(part), part, atol=1e-12)  # idempotent
    # The remainder is orthogonal (Frobenius) to the part, as a projection's must be.
    assert abs(float(np.sum((matrix - part) * part))) < 1e-9 * (1 + float(np.sum(matrix**2)))


@settings(deadline=None)
@given(d=small_d, base=bases, seed=seeds, start=st.integers(0, 5000), k=offsets)
def test_its_term_depends_on_the_offset_alone(d, base, seed, start, k):
    matrix = np.random.default_rng(seed).normal(size=(d, d))
    part = pu.commuting_part(matrix)
    a = (np.diag(matrix)[0::2] + np.diag(matrix)[1::2]) / 2
    b = (matrix[0::2, 1::2].diagonal() - matrix[1::2, 0::2].diagonal()) / 2
    omega = base ** (-2 * np.arange(d // 2) / d)
    expected = np.sum(a * np.cos(k * omega) - b * np.sin(k * omega))
    for p in (start, start + 17):
        rows = pu.encode_positions([p, p + k], d, base=base)
        np.testing.assert_allclose(rows[0] @ part @ rows[1], expected, atol=1e-8)


@settings(deadline=None)
@given(d=small_d, seed=seeds, k=offsets)
def test_concatenated_layout_is_the_same_projection_permuted(d, seed, k):
    matrix = np.random.default_rng(seed).normal(size=(d, d))
    order = pu.layout_permutation(d)
    in_concatenated = matrix[np.ix_(order, order)]
    part = pu.commuting_part(in_concatenated, layout="concatenated")
    np.testing.assert_array_equal(part, pu.commuting_part(matrix)[np.ix_(order, order)])
    t_k = pu.shift_matrix(k, d, layout="concatenated")
    np.testing.assert_allclose(part @ t_k, t_k @ part, atol=1e-9)


@pytest.mark.parametrize(
    ("matrix", "kwargs", "error", "match"),
    [
        (np.ones((4, 6)), {}, ValueError, "square"),
        (np.ones((3, 3)), {}, ValueError, "d_model"),
        (np.ones(4), {}, ValueError, "matrix"),
        (np.full((2, 2), np.nan), {}, ValueError, "matrix"),
        ([["a", "b"], ["c", "d"]], {}, TypeError, "matrix"),
        (np.ones((2, 2), dtype=bool), {}, TypeError, "matrix"),
        (np.ones((2, 2)), {"layout": "sines first"}, ValueError, "layout"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(matrix, kwargs, error, match):
    with pytest.raises(error, match=match):
        pu.commuting_part(matrix, **kwargs)
