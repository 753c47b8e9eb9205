"""Notebook 07: the extended-precision reference and the unsafe low-precision recipe."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pe_utils as pu
from pe_utils.precision import encode_with_angle_dtype, reference_encoding


def test_pair_zero_matches_libm_at_huge_integers():
    # ω_0 = 1 exactly, so column 0 is sin(p) and column 1 is cos(p); libm is accurate to 1 ulp.
    positions = np.array([0, 1, 10, 12345, 10**6, 10**9, 10**15], dtype=float)
    table = reference_encoding(positions, 4)
    np.testing.assert_allclose(table[:, 0], [math.sin(p) for p in positions], rtol=0, atol=2e-16)
    np.testing.assert_allclose(table[:, 1], [math.cos(p) for p in positions], rtol=0, atol=2e-16)


def test_exact_quarter_frequency():
    # base 16, d 4: ω_1 = 16^(−1/2) = 1/4 exactly, so p·ω_1 = p/4 is exact in float64 too.
    positions = np.array([3.0, 1001.0, 4.0e6 + 1.0])
    table = reference_encoding(positions, 4, base=16.0)
    np.testing.assert_allclose(table[:, 2], [math.sin(p / 4) for p in positions], rtol=0, atol=2e-16)
    np.testing.assert_allclose(table[:, 3], [math.cos(p / 4) for p in positions], rtol=0, atol=2e-16)


def test_hand_values_at_zero_and_fractional_positions():
    np.testing.assert_array_equal(reference_encoding([0.0], 6)[0], [0, 1, 0, 1, 0, 1])
    np.testing.assert_allclose(reference_encoding([0.5], 2)[0], [math.sin(0.5), math.cos(0.5)], atol=2e-16)


@given(d=st.sampled_from([2, 4, 8, 16]), p=st.integers(-1000, 1000))
def test_agrees_with_float64_table_for_small_positions(d, p):
    # Below |p| = 1000 the float64 formula is accurate to ~1e-13: an identity check.
    row = reference_encoding([float(p)], d)[0]
    np.testing.assert_allclose(row, pu.encode_positions([p], d)[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(row[0::2] ** 2 + row[1::2] ** 2, 1.0, rtol=0, atol=1e-15)


def test_layout_and_shape():
    positions = np.array([[1.0, 2.0], [3.0, 4.0]])
    inter = reference_encoding(positions, 6)
    assert inter.shape == (2, 2, 6)
    halves = reference_encoding(positions, 6, layout="concatenated")
    np.testing.assert_array_equal(halves, inter[..., pu.layout_permutation(6)])


def test_float64_angles_match_plain_numpy():
    positions = np.array([0.0, 5.0, 1e6])
    omega = 10000.0 ** (-np.arange(4) / 4)  # d = 8: ω_i = 10000^(−2i/8)
    angles = positions[:, None] * omega[None, :]
    table = encode_with_angle_dtype(positions, 8, angle_dtype=np.float64)
    np.testing.assert_allclose(table[:, 0::2], np.sin(angles), atol=1e-15)
    np.testing.assert_allclose(table[:, 1::2], np.cos(angles), atol=1e-15)


@given(positions=st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=5), d=st.sampled_from([2, 6]))
def test_layouts_hold_the_same_entries(positions, d):
    # Sines of pair i at column 2i (interleaved) or i (concatenated); cosines at 2i+1 or d/2 + i.
    for angle_dtype in (np.float16, np.float32):
        inter = encode_with_angle_dtype(positions, d, angle_dtype=angle_dtype)
        halves = encode_with_angle_dtype(positions, d, angle_dtype=angle_dtype, layout="concatenated")
        assert halves.dtype == angle_dtype
        np.testing.assert_array_equal(halves[:, : d // 2], inter[:, 0::2])
        np.testing.assert_array_equal(halves[:, d // 2 :], inter[:, 1::2])


def test_float32_angles_are_rounded_before_the_sine():
    # p = 2^24 + 1 is not a float32: it becomes 2^24, so pair 0 gives sin(2^24).
    table = encode_with_angle_dtype([2.0**24 + 1], 2, angle_dtype=np.float32)
    assert table.dtype == np.float32
    np.testing.assert_allclose(table[0], [math.sin(2.0**24), math.cos(2.0**24)], atol=1e-6)
    assert abs(float(table[0, 0]) - math.sin(2.0**24 + 1)) > 0.1


def test_float16_overflow_gives_nan_without_warning():
    table = encode_with_angle_dtype([1.0, 70000.0], 4, angle_dtype=np.float16)
    assert table.dtype == np.float16
    assert np.all(np.isfinite(table[0])) and np.all(np.isnan(table[1, 0::2]))


def test_float32_angles_lose_accuracy_at_large_positions():
    positions = np.array([1.0, 10.0, 1e6])
    reference = reference_encoding(positions, 64)
    error = np.abs(encode_with_angle_dtype(positions, 64, angle_dtype=np.float32) - reference).max(axis=1)
    assert error[0] < 1e-6 and error[-1] > 1e-3
    safe = np.abs(pu.encode_positions(positions, 64, dtype=np.float32) - reference).max()
    assert safe <= 2.0**-25 + 1e-9


def test_float32_angles_against_bfloat16_rounding_at_long_contexts():
    # d = 128, base 500000 (Llama 3). bfloat16 rounds a value in [−1, 1] by at most 2^−9.
    # The float64 table stored in bfloat16 stays within that at every length; float32
    # angles stay within it at p = 8191 and leave it by p = 131071 and 10^6.
    positions = np.array([8191.0, 131071.0, 1e6])
    reference = reference_encoding(positions, 128, base=500000.0)
    safe = pu.round_to_bfloat16(pu.encode_positions(positions, 128, base=500000.0))
    assert np.abs(safe - reference).max() <= 2.0**-9
    float32 = encode_with_angle_dtype(positions, 128, angle_dtype=np.float32, base=500000.0)
    error = np.abs(float32.astype(np.float64) - reference).max(axis=1)
    assert error[0] < 2.0**-9 < error[1] and error[2] > 10 * 2.0**-9


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="d_model"):
        reference_encoding([1.0], 3)
    with pytest.raises(ValueError, match="positions"):
        reference_encoding([np.inf], 4)
    with pytest.raises(ValueError, match="positions"):
        reference_encoding([1e16], 4)
    with pytest.raises(ValueError, match="positions and d_model"):
        reference_encoding(np.arange(10_000), 64)
    with pytest.raises(ValueError, match="digits"):
        reference_encoding([1.0], 4, digits=10)
    with pytest.raises(TypeError, match="digits"):
        reference_encoding([1.0], 4, digits=40.0)
    with pytest.raises(ValueError, match="base"):
        reference_encoding([1.0], 4, base=1.0)
    with pytest.raises(ValueError, match="layout"):
        reference_encoding([1.0], 4, layout="pairs")
    with pytest.raises(TypeError, match="angle_dtype"):
        encode_with_angle_dtype([1.0], 4, angle_dtype=np.int16)
    with pytest.raises(ValueError, match="positions"):
        encode_with_angle_dtype([np.nan], 4, angle_dtype=np.float32)
    with pytest.raises(ValueError, match="d_model"):
        encode_with_angle_dtype([1.0], 5, angle_dtype=np.float32)


# ---------------------------------------------------------------- float32_angle_error


def test_float32_angle_error_hand_values():
    from fractions import Fraction

    # p = 2^24 + 1 is halfway between the float32 numbers 2^24 and 2^24 + 2: ties to even, 2^24.
    # With ω = 1 the float32 angle is 2^24, one radian short.
    assert pu.float32_angle_error([2.0**24 + 1], [1.0]).tolist() == [1.0]
    # p = 3, ω = 0.1: float32(0.1) = 13421773·2^-27 (0.1·2^27 = 13421772.8). 3 times it is
    # 40265319·2^-27; float32 numbers in [0.25, 0.5) are 2^-25 = 4·2^-27 apart, and
    # 40265319 / 4 = 10066329.75 rounds to 10066330. The float64 angle is 3 * 0.1.
    expected = float(Fraction(10066330, 2**25) - Fraction(3 * 0.1))  # exact: the two are close
    assert pu.float32_angle_error([3.0], [0.1]).tolist() == [expected]
    assert 1.19e-8 < expected < 1.20e-8


def test_float32_angle_error_with_given_float32_frequencies():
    from fractions import Fraction

    # omega32 one float32 step above float32(0.1): 13421774·2^-27. At p = 1 the float32 angle
    # is omega32 itself.
    omega32 = np.float32(13421774 * 2.0**-27)
    expected = float(Fraction(13421774, 2**27) - Fraction(0.1))
    assert pu.float32_angle_error([1.0], [0.1], [omega32]).tolist() == [expected]
    # omega32 = omega rounded once is the default
    assert pu.float32_angle_error([1.0], [0.1], [np.float32(0.1)]).tolist() == (
        pu.float32_angle_error([1.0], [0.1]).tolist()
    )


def test_float32_angle_error_is_the_largest_over_pairs_and_keeps_the_shape():
    # p = 3: pair 0 (ω = 1) is exact, pair 1 (ω = 0.1) errs by about 1.2e-8 (above).
    # p = 2^24 + 1: pair 0 errs by 1; pair 1 by less.
    out = pu.float32_angle_error([[3.0], [2.0**24 + 1]], [1.0, 0.1])
    assert out.shape == (2, 1)
    assert out[0, 0] == pu.float32_angle_error([3.0], [0.1])[0] and out[1, 0] == 1.0
    # integers below 2^24 times powers of two: every float32 angle is exact
    assert not np.any(pu.float32_angle_error(np.arange(1000.0), [1.0, 0.5, 2.0**-10]))


@given(
    positions=st.lists(st.one_of(st.just(0.0), st.floats(1e-3, 1e6)), min_size=1, max_size=20),
    omega=st.lists(st.floats(1e-6, 1.0), min_size=1, max_size=8),
)
def test_float32_angle_error_within_three_float32_roundings(positions, omega):
    # Products p·ω ≥ 1e-9 stay far above float32's subnormals. fl32(p), fl32(ω) and their
    # float32 product each err by at most 2^-24 relative, so the angle errs by at most about
    # 3·2^-24·p·ω (the float64 angle adds ~1e-16 of it).
    p, w = np.array(positions), np.array(omega)
    bound = 3.001 * 2.0**-24 * np.max(np.outer(p, w), axis=1)
    assert np.all(pu.float32_angle_error(p, w) <= bound)
