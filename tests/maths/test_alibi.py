"""pe_utils.alibi: ALiBi's slopes by hand, against the authors' published code, their properties,
and bad input (notebook 09)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pe_utils.alibi import alibi_slopes


def test_alibi_slopes_by_hand():
    eighths = [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]
    np.testing.assert_allclose(alibi_slopes(8), eighths)
    np.testing.assert_allclose(alibi_slopes(1), [2.0**-8])
    np.testing.assert_allclose(alibi_slopes(2), [2.0**-4, 2.0**-8])
    np.testing.assert_allclose(alibi_slopes(16), 2.0 ** (-0.5 * np.arange(1, 17)))
    # 6 heads: the 4 slopes 2^-2 … 2^-8, then slopes 0 and 2 of 8 heads: 2^-1, 2^-3
    np.testing.assert_allclose(alibi_slopes(6), [2.0**-2, 2.0**-4, 2.0**-6, 2.0**-8, 2.0**-1, 2.0**-3])
    # 12 heads: 2^-1 … 2^-8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5
    expected = [2.0**-k for k in range(1, 9)] + [2.0**-0.5, 2.0**-1.5, 2.0**-2.5, 2.0**-3.5]
    np.testing.assert_allclose(alibi_slopes(12), expected)


@pytest.mark.parametrize("n_heads", [n for n in range(3, 200) if n & (n - 1)])
def test_alibi_extra_slopes_are_not_all_between_the_base_slopes(n_heads):
    # n = 2^a + r heads: 2^a base slopes 2^(−8(h+1)/2^a), then r extra slopes 2^(−4(2j+1)/2^a).
    # Extra j = 0 lies above every base slope; extra j ≥ 1 lies between base slopes j − 1 and j.
    power = 2 ** math.floor(math.log2(n_heads))
    slopes = alibi_slopes(n_heads)
    base, extra = slopes[:power], slopes[power:]
    j = np.arange(n_heads - power)
    np.testing.assert_allclose(extra, 2.0 ** (-4.0 * (2 * j + 1) / power), rtol=1e-12)
    assert extra[0] > base.max()
    for j in range(1, extra.size):
        assert base[j - 1] > extra[j] > base[j]


def _get_slopes_as_published(n):
    """A literal transcription of get_slopes.

    From ofirpress/attention_with_linear_biases, fairseq/models/transformer.py.
    """

    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return (
        get_slopes_power_of_2(closest_power_of_2)
        + _get_slopes_as_published(2 * closest_power_of_2)[0::2][: n - closest_power_of_2]
    )


@pytest.mark.parametrize("n_heads", range(1, 70))
def test_alibi_slopes_match_the_published_code(n_heads):
    np.testing.assert_allclose(alibi_slopes(n_heads), _get_slopes_as_published(n_heads), rtol=1e-13)


@given(n=st.integers(min_value=1, max_value=256))
def test_alibi_slopes_properties(n):
    slopes = alibi_slopes(n)
    assert slopes.shape == (n,)
    assert np.all((slopes > 0) & (slopes < 1))
    assert len(set(slopes.tolist())) == n  # one distinct slope per head
    power = 2 ** int(math.floor(math.log2(n)))
    # the first 2^a slopes are geometric with start = ratio = 2^(−8/2^a)
    np.testing.assert_allclose(slopes[:power], 2.0 ** (-8.0 * np.arange(1, power + 1) / power), rtol=1e-12)


@pytest.mark.parametrize(
    ("n_heads", "error"),
    [(0, ValueError), (-8, ValueError), (8.0, TypeError), (True, TypeError), ("8", TypeError)],
)
def test_bad_alibi_heads(n_heads, error):
    with pytest.raises(error, match="n_heads"):
        alibi_slopes(n_heads)
