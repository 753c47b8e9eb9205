"""Notebook 02's binary codes against hand-written values."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pe_utils as pu


def test_binary_codes_hand_value():
    expected = [[0, 0], [1, 0], [0, 1], [1, 1]]
    np.testing.assert_array_equal(pu.binary_codes(4), expected)


@pytest.mark.parametrize("n, bits", [(0, 1), (1, 1), (2, 1), (3, 2), (8, 3), (9, 4), (1000, 10)])
def test_default_bits_are_the_fewest_that_tell_positions_apart(n, bits):
    assert pu.binary_codes(n).shape == (n, bits)


def test_codes_rebuild_the_positions_and_are_unique():
    codes = pu.binary_codes(100, 8)
    np.testing.assert_array_equal(codes @ (2 ** np.arange(8)), np.arange(100))
    assert len({tuple(row) for row in codes}) == 100


def test_bit_b_is_a_square_wave_of_period_two_to_the_b_plus_one():
    codes = pu.binary_codes(64)
    for b in range(6):
        period = 2 ** (b + 1)
        expected = (np.arange(64) % period) >= 2**b
        np.testing.assert_array_equal(codes[:, b], expected.astype(int))


def test_wide_codes_have_zero_high_bits():
    codes = pu.binary_codes(5, 70)
    assert codes.shape == (5, 70)
    assert not codes[:, 3:].any()


def test_too_few_bits_is_refused():
    with pytest.raises(ValueError, match="n_bits"):
        pu.binary_codes(9, 3)


@settings(max_examples=60, deadline=None)
@given(bit=st.integers(0, 9), start=st.integers(0, 2000))
def test_bit_flips_after_half_a_period_and_returns_after_a_whole_one(bit, start):
    # The two identities of notebook 02 §2, at random bits and positions:
    # bit_b(p + 2^b) = 1 − bit_b(p) and bit_b(p + 2^(b+1)) = bit_b(p).
    codes = pu.binary_codes(start + 2 ** (bit + 1) + 1, 12)
    assert codes[start + 2**bit, bit] == 1 - codes[start, bit]
    assert codes[start + 2 ** (bit + 1), bit] == codes[start, bit]
    # ... and it agrees with the arithmetic definition floor(p / 2^b) mod 2.
    assert codes[start, bit] == (start // 2**bit) % 2
