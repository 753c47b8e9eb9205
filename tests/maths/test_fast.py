"""sinusoidal_pe_fast (the rotation builder) against sinusoidal_pe (the formula) and an exact reference.

No wall-clock assertions here: speed is measured by ``make bench``. Memory is
checked with tracemalloc, which counts bytes, not time.
"""

import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pe_utils as pu
from tests.strategies import bases, d_models, layouts

EPS = np.finfo(np.float64).eps
DTYPES = [np.float16, np.float32, np.float64, np.longdouble]


def exact_sin_cos(positions, omega):
    """sin and cos of the exact real products ``p·ω`` for float64 ``p`` and ``ω``, to ~4e-16.

    Dekker's two-product writes ``p·ω = hi + lo`` exactly in float64; then
    ``sin(hi + lo) = sin(hi) + lo·cos(hi) + O(lo²)`` with ``|lo| ≤ 2^-53·|hi|``.
    Needs no long double, so it is as good on every CPU.
    """
    p = np.asarray(positions, dtype=np.float64)[:, None]
    omega = np.asarray(omega, dtype=np.float64)
    hi = p * omega
    split = 2.0**27 + 1.0
    p_hi = split * p - (split * p - p)
    w_hi = split * omega - (split * omega - omega)
    p_lo, w_lo = p - p_hi, omega - w_hi
    lo = ((p_hi * w_hi - hi) + p_hi * w_lo + p_lo * w_hi) + p_lo * w_lo
    sin_hi, cos_hi = np.sin(hi), np.cos(hi)
    return sin_hi + lo * cos_hi, cos_hi - lo * sin_hi


def interleave(sines, cosines):
    table = np.empty((sines.shape[0], 2 * sines.shape[1]))
    table[:, 0::2], table[:, 1::2] = sines, cosines
    return table


def max_error(table, positions, omega):
    return float(np.max(np.abs(table - interleave(*exact_sin_cos(positions, omega))), initial=0.0))


def tolerance(largest_position, dtype=np.float64):
    """Bound on |fast − formula|: each is within half an ulp of the largest angle
    ``|p|·ω_0 = |p|`` plus a few float64 roundings of numbers ≤ 1, plus one rounding to ``dtype``."""
    dtype_eps = float(np.finfo(dtype).eps) if np.finfo(dtype).bits < 64 else 0.0
    return 2 * EPS * max(abs(largest_position), 1.0) + 8 * EPS + dtype_eps


# ---------------------------------------------------------------- fast == formula


@given(
    n=st.integers(min_value=0, max_value=3000),
    d=d_models,
    base=bases,
    layout=layouts,
    dtype=st.sampled_from(DTYPES),
)
def test_fast_matches_formula(n, d, base, layout, dtype):
    fast = pu.sinusoidal_pe_fast(n, d, base=base, layout=layout, dtype=dtype)
    slow = pu.sinusoidal_pe(n, d, base=base, layout=layout, dtype=dtype)
    assert fast.shape == slow.shape == (n, d)
    assert fast.dtype == slow.dtype == np.dtype(dtype)
    np.testing.assert_allclose(
        fast.astype(np.float64), slow.astype(np.float64), rtol=0, atol=tolerance(n, dtype)
    )


def test_formula_is_encode_positions_on_the_rows():
    # sinusoidal_pe and encode_positions evaluate the same products p·ω_i: bit for bit
    for layout in ("interleaved", "concatenated"):
        np.testing.assert_array_equal(
            pu.sinusoidal_pe(777, 48, layout=layout), pu.encode_positions(np.arange(777), 48, layout=layout)
        )


@pytest.mark.parametrize("n", [0, 1, 2, 3, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000, 4099])
@pytest.mark.parametrize("d", [2, 4, 6, 130])
def test_fast_edge_shapes_against_math_module(n, d):
    # Sizes around perfect squares (the block is ⌊√n⌋) and a partial last block.
    table = pu.sinusoidal_pe_fast(n, d, base=100.0)
    omega = [100.0 ** (-2 * i / d) for i in range(d // 2)]
    for p in sorted({0, n // 2, n - 1}) if n else []:
        expected = [f(p * w) for w in omega for f in (math.sin, math.cos)]
        np.testing.assert_allclose(table[p], expected, rtol=0, atol=tolerance(n))


@given(n=st.integers(min_value=0, max_value=2000), d=d_models, base=bases)
def test_fast_layouts_are_one_permutation(n, d, base):
    interleaved = pu.sinusoidal_pe_fast(n, d, base=base)
    concatenated = pu.sinusoidal_pe_fast(n, d, base=base, layout="concatenated")
    np.testing.assert_allclose(concatenated, interleaved[:, pu.layout_permutation(d)], rtol=0, atol=4 * EPS)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.longdouble])
@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
def test_fast_rounds_once_to_dtype(dtype, layout):
    # Products are formed in float64 and rounded once: exactly the float64 table, cast.
    table64 = pu.sinusoidal_pe_fast(3000, 40, layout=layout)
    table = pu.sinusoidal_pe_fast(3000, 40, layout=layout, dtype=dtype)
    assert table.dtype == dtype
    np.testing.assert_array_equal(table, table64.astype(dtype))


# ---------------------------------------------------------------- accuracy


@pytest.mark.parametrize(
    ("n", "d", "base"),
    [
        (1, 2, 1e4),
        (2, 8, 1e4),
        (17, 64, 1e4),
        (1000, 64, 1e4),
        (4096, 1024, 1e4),
        (2**17, 16, 1e4),
        (2**17, 4, 2.0),
        (50_000, 128, 500.0),
    ],
)
def test_fast_error_within_twice_the_formula(n, d, base):
    omega = pu.frequencies(d, base)
    positions = np.arange(n, dtype=np.float64)
    formula = max_error(pu.sinusoidal_pe(n, d, base=base), positions, omega)
    fast = max_error(pu.sinusoidal_pe_fast(n, d, base=base), positions, omega)
    # 4 eps of slack for the reference's own rounding, which matters only at tiny n.
    assert fast <= 2 * formula + 4 * EPS, (fast, formula)


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 60, reason="long double is plain double on this CPU")
def test_reference_agrees_with_long_double():
    # The double-double reference against an independent 64-bit-mantissa evaluation.
    positions = np.r_[np.arange(200), np.arange(2**17 - 200, 2**17)].astype(np.float64)
    omega = pu.frequencies(64)
    angles = np.multiply.outer(positions.astype(np.longdouble), omega.astype(np.longdouble))
    sines, cosines = exact_sin_cos(positions, omega)
    # long double rounds p·ω to 64 bits: ≤ 2^17 · 2^-64 ≈ 7e-15 at the largest p.
    assert np.max(np.abs(np.sin(angles) - sines)) < 1e-14
    assert np.max(np.abs(np.cos(angles) - cosines)) < 1e-14


# ---------------------------------------------------------------- memory


@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fast_peak_memory_close_to_table(layout, dtype):
    pu.sinusoidal_pe_fast(8192, 256, layout=layout, dtype=dtype)  # warm-up
    tracemalloc.start()
    try:
        table = pu.sinusoidal_pe_fast(8192, 256, layout=layout, dtype=dtype)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= 1.5 * table.nbytes, peak / table.nbytes
