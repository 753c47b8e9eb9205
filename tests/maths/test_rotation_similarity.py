"""Notebooks 04 and 05: T_k and the similarity profile against hand values."""

import math

import numpy as np
import pytest

import pe_utils as pu


def test_shift_matrix_quarter_turn_d2():
    # d = 2: ω_0 = 1, so T_{π/2} = [[cos, sin], [−sin, cos]](π/2) = [[0, 1], [−1, 0]].
    np.testing.assert_allclose(pu.shift_matrix(math.pi / 2, 2), [[0, 1], [-1, 0]], atol=1e-15)


def test_shift_matrix_hand_blocks_d4():
    k, base = 2.0, 100.0
    a, b = k * 1.0, k * 0.1
    expected = np.array(
        [
            [math.cos(a), math.sin(a), 0, 0],
            [-math.sin(a), math.cos(a), 0, 0],
            [0, 0, math.cos(b), math.sin(b)],
            [0, 0, -math.sin(b), math.cos(b)],
        ]
    )
    np.testing.assert_allclose(pu.shift_matrix(k, 4, base=base), expected, atol=1e-15)


def test_wrong_sign_would_shift_backwards():
    # The textbook rotation [[cos, −sin], [sin, cos]] moves (sin, cos) pairs to p − k.
    table = pu.sinusoidal_pe(20, 8)
    T = pu.shift_matrix(3, 8)
    np.testing.assert_allclose(table[:-3] @ T.T, table[3:], atol=1e-12)
    np.testing.assert_allclose(table[3:] @ T, table[:-3], atol=1e-12)
    assert not np.allclose(table[:-3] @ T, table[3:])


@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
def test_shift_moves_rows_along_the_table(layout):
    table = pu.sinusoidal_pe(30, 6, layout=layout)
    np.testing.assert_allclose(pu.shift(table[:25], 5, layout=layout), table[5:], atol=1e-12)
    per_row = pu.shift(table[:3], np.array([0, 1, 2]), layout=layout)
    np.testing.assert_allclose(per_row, table[[0, 2, 4]], atol=1e-12)


def test_concatenated_shift_matrix_is_permuted_interleaved():
    order = pu.layout_permutation(6)
    inter = pu.shift_matrix(1.5, 6)
    P = pu.permutation_matrix(order)
    np.testing.assert_allclose(pu.shift_matrix(1.5, 6, layout="concatenated"), P @ inter @ P.T)


def test_similarity_profile_hand_values():
    # d = 2: f(k) = cos k.  d = 4, base = 100: f(k) = cos k + cos(0.1 k).
    ks = np.array([0.0, 1.0, -2.5])
    np.testing.assert_allclose(pu.similarity_profile(ks, 2), np.cos(ks))
    np.testing.assert_allclose(pu.similarity_profile(ks, 4, base=100.0), np.cos(ks) + np.cos(0.1 * ks))
    assert pu.similarity_profile(0, 512) == 256.0
    assert pu.similarity_profile(np.zeros((2, 3)), 4).shape == (2, 3)


def test_similarity_profile_is_not_monotonic():
    f = pu.similarity_profile(np.arange(0, 200), 64)
    assert np.any(np.diff(f) > 0)  # it rises somewhere after falling from f(0)


def test_similarity_profile_large_input_is_chunked_correctly():
    # 200 000 offsets at d = 64 span two chunks of 2^22 / 32 offsets; every one must be right.
    ks = np.arange(200_000, dtype=float)
    omega = 10000.0 ** (-np.arange(32) / 32)  # ω_i = 10000^(−2i/64)
    expected = np.cos(np.multiply.outer(ks, omega)).sum(axis=1)
    np.testing.assert_allclose(pu.similarity_profile(ks, 64), expected, rtol=0, atol=1e-9)


def test_shift_matrix_takes_numpy_and_zero_dimensional_k():
    expected = pu.shift_matrix(1.5, 4)
    np.testing.assert_array_equal(pu.shift_matrix(np.float64(1.5), 4), expected)
    np.testing.assert_array_equal(pu.shift_matrix(np.array(1.5), 4), expected)
    np.testing.assert_array_equal(pu.shift_matrix(np.int32(2), 4), pu.shift_matrix(2.0, 4))
