"""Notebook 03's functions against hand-derived values."""

import math

import numpy as np
import pytest

import pe_utils as pu


def test_frequencies_hand_values():
    # d = 6, base = 10000: ω_i = 10000^(−2i/6) = 1, 10000^(−1/3), 10000^(−2/3)
    expected = [1.0, 10000 ** (-1 / 3), 10000 ** (-2 / 3)]
    np.testing.assert_allclose(pu.frequencies(6), expected, rtol=1e-15)
    # d = 4, base = 100: ω = 1, 100^(−1/2) = 0.1
    np.testing.assert_allclose(pu.frequencies(4, base=100.0), [1.0, 0.1], rtol=1e-15)


def test_wavelengths_run_from_two_pi_to_just_under_two_pi_base():
    d, base = 512, 10000.0
    lam = pu.wavelengths(d, base)
    assert lam.shape == (d // 2,)
    assert math.isclose(lam[0], 2 * math.pi)
    assert math.isclose(lam[-1], 2 * math.pi * base ** ((d - 2) / d), rel_tol=1e-12)
    assert lam[-1] < 2 * math.pi * base  # the common misstatement is "2π·base"
    assert np.all(np.diff(lam) > 0)


def test_table_d2_is_sin_and_cos_of_position():
    table = pu.sinusoidal_pe(5, 2)
    expected = [[math.sin(p), math.cos(p)] for p in range(5)]
    np.testing.assert_allclose(table, expected, atol=1e-15)


def test_table_hand_row_d4():
    # d = 4, base = 100: ω = (1, 0.1); row p = 3 is [sin 3, cos 3, sin 0.3, cos 0.3]
    row = pu.sinusoidal_pe(4, 4, base=100.0)[3]
    expected = [math.sin(3), math.cos(3), math.sin(0.3), math.cos(0.3)]
    np.testing.assert_allclose(row, expected, atol=1e-15)


def test_concatenated_layout_hand_row():
    row = pu.sinusoidal_pe(4, 4, base=100.0, layout="concatenated")[3]
    expected = [math.sin(3), math.sin(0.3), math.cos(3), math.cos(0.3)]
    np.testing.assert_allclose(row, expected, atol=1e-15)


@pytest.mark.parametrize("build", [pu.sinusoidal_pe, pu.sinusoidal_pe_fast])
@pytest.mark.parametrize("n", [0, 1, 2, 17, 300, 1000])
def test_builders_agree_with_math_module(build, n):
    d, base = 8, 10000.0
    table = build(n, d)
    assert table.shape == (n, d) and table.dtype == np.float64
    omega = [base ** (-2 * i / d) for i in range(d // 2)]
    expected = np.array([[f(p * w) for w in omega for f in (math.sin, math.cos)] for p in range(n)]).reshape(
        n, d
    )
    np.testing.assert_allclose(table, expected, atol=1e-12)


def test_empty_table_has_d_columns():
    assert pu.sinusoidal_pe(0, 6).shape == (0, 6)
    assert pu.encode_positions([], 6).shape == (0, 6)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_dtype_is_the_rounded_float64_table(dtype):
    table = pu.sinusoidal_pe(50, 8, dtype=dtype)
    assert table.dtype == dtype
    np.testing.assert_array_equal(table, pu.sinusoidal_pe(50, 8).astype(dtype))


def test_encode_positions_fractional_and_large():
    positions = [0.5, 1e6 + 0.25, 12345.0]
    d = 4
    omega = [1.0, 10000 ** (-0.5)]
    expected = [[f(p * w) for w in omega for f in (math.sin, math.cos)] for p in positions]
    np.testing.assert_allclose(pu.encode_positions(positions, d), expected, atol=1e-12)


def test_encode_positions_computes_angles_in_float64_for_any_dtype():
    # In float32 the angle 1e6·ω_0 would already be off by ~0.03 rad; the result
    # must instead be the correctly rounded float64 value.
    positions = np.array([1_000_003.0])
    out = pu.encode_positions(positions, 2, dtype=np.float32)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(
        out, np.array([[math.sin(1_000_003.0), math.cos(1_000_003.0)]], dtype=np.float32)
    )


def test_encode_positions_keeps_the_shape_of_positions():
    grid = np.arange(6).reshape(2, 3)
    out = pu.encode_positions(grid, 4)
    assert out.shape == (2, 3, 4)
    np.testing.assert_array_equal(out[1, 2], pu.sinusoidal_pe(6, 4)[5])
    assert pu.encode_positions(7, 4).shape == (4,)


def test_layout_permutation_hand_value_and_inverse():
    order = pu.layout_permutation(6)
    np.testing.assert_array_equal(order, [0, 2, 4, 1, 3, 5])
    inter = pu.sinusoidal_pe(9, 6)
    concat = pu.sinusoidal_pe(9, 6, layout="concatenated")
    np.testing.assert_array_equal(inter[:, order], concat)
    np.testing.assert_array_equal(concat[:, np.argsort(order)], inter)
    matrix = pu.permutation_matrix(order)
    np.testing.assert_allclose(inter @ matrix.T, concat, atol=0)
