"""Notebook 08: the bfloat16 emulation rounds to 8 significant bits, ties to even."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pe_utils.precision import BFLOAT16_MAX, BFLOAT16_TINY, round_to_bfloat16


def bfloat16_by_bits(values):
    """Independent route for float32 inputs: keep the top 16 bits of the float32, rounding to even."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    lsb = (bits >> 16) & 1
    rounded = ((bits + 0x7FFF + lsb) & 0xFFFF0000).astype(np.uint32)
    return rounded.view(np.float32).astype(np.float64)


def test_integers_are_exact_up_to_256():
    integers = np.arange(0.0, 257.0)
    np.testing.assert_array_equal(round_to_bfloat16(integers), integers)
    assert round_to_bfloat16(257.0) == 256.0


def test_known_roundings():
    # spacing 2 on [256, 512): 258 stays, 259 is a tie and goes to the even 260 (mantissa ...10)
    np.testing.assert_array_equal(round_to_bfloat16([258.0, 259.0, 261.0]), [258.0, 260.0, 260.0])
    # spacing 32 on [4096, 8192): 8190 and 8191 are nearer 8192 than 8160
    np.testing.assert_array_equal(round_to_bfloat16([8190.0, 8191.0, 8176.0]), [8192.0, 8192.0, 8192.0])
    # 1/3 = 0.0101010101…b: 8 significant bits 1.0101011b·2⁻² = 171/512
    assert round_to_bfloat16(1 / 3) == 171 / 512
    assert round_to_bfloat16(-1 / 3) == -171 / 512


def test_extremes():
    assert round_to_bfloat16(BFLOAT16_MAX) == BFLOAT16_MAX
    assert round_to_bfloat16(2.0**128) == np.inf
    assert round_to_bfloat16(-1e300) == -np.inf
    assert round_to_bfloat16(BFLOAT16_TINY) == BFLOAT16_TINY
    assert round_to_bfloat16(BFLOAT16_TINY / 2) == 0.0  # a tie with 0, which is even
    assert round_to_bfloat16(3 * BFLOAT16_TINY / 2) == 2 * BFLOAT16_TINY  # tie: 2·2⁻¹³³ is even
    out = round_to_bfloat16([np.inf, -np.inf, np.nan])
    assert out[0] == np.inf and out[1] == -np.inf and np.isnan(out[2])


def test_agrees_with_the_float32_bit_rounding():
    rng = np.random.default_rng(0)
    x = (rng.normal(size=5000) * 10.0 ** rng.integers(-30, 30, size=5000)).astype(np.float32)
    ties = (np.arange(1, 2000, dtype=np.float64) * 2.0 + 1.0).astype(np.float32)  # odd integers above 256
    for values in (x, ties):
        np.testing.assert_array_equal(round_to_bfloat16(values), bfloat16_by_bits(values))


@given(st.floats(allow_nan=False, width=32))
def test_property_nearest_float32_route(value):
    assert round_to_bfloat16(value) == bfloat16_by_bits(value)


@given(st.floats(min_value=-1e30, max_value=1e30, allow_nan=False))
def test_property_result_is_a_bfloat16_and_idempotent(value):
    once = round_to_bfloat16(value)
    assert round_to_bfloat16(once) == once
    # at most half a spacing away: 2^-8 relative to the value, or half the subnormal spacing
    assert abs(once - value) <= max(abs(value) * 2.0**-8, BFLOAT16_TINY / 2)


def test_shape_is_kept():
    assert round_to_bfloat16(np.zeros((2, 3, 4))).shape == (2, 3, 4)
    assert round_to_bfloat16(3).shape == ()


def test_bad_inputs():
    with pytest.raises(TypeError, match="values"):
        round_to_bfloat16(["a"])
    with pytest.raises(TypeError, match="values"):
        round_to_bfloat16([True])
    with pytest.raises(TypeError, match="values"):
        round_to_bfloat16([1 + 2j])


def test_python_integers_beyond_int64_are_taken_as_floats():
    assert round_to_bfloat16(2**70) == 2.0**70  # a power of two is exact in bfloat16
    with pytest.raises(ValueError, match="values must be real numbers within the float64 range"):
        round_to_bfloat16(10**400)
