"""Identities that notebook 03 states about the table, as property tests of pe_utils.

Each expected value is derived independently of ``pe_utils``: with ``math`` and a loop
over the pairs, or from plain trigonometry (the chord of a unit circle, aliasing of
frequencies at integer positions).
"""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import pe_utils
from tests.strategies import bases, d_models, integer_positions, offsets


@settings(deadline=None)
@given(d=d_models, base=bases)
def test_log_space_form_of_real_code_is_the_frequencies(d, base):
    # exp(arange(0, d, 2) · (−ln base / d)), as in The Annotated Transformer
    log_space = [math.exp(two_i * -(math.log(base) / d)) for two_i in range(0, d, 2)]
    np.testing.assert_allclose(pe_utils.frequencies(d, base), log_space, rtol=1e-13)


@settings(deadline=None)
@given(d=d_models, base=bases, p=integer_positions, k=offsets)
def test_distance_of_rows_depends_on_the_offset_only(d, base, p, k):
    # pair i: two points of the unit circle k·ω_i apart, chord 2|sin(k ω_i / 2)|
    chord_sq = sum(4 * math.sin(k * base ** (-2 * i / d) / 2) ** 2 for i in range(d // 2))
    rows = pe_utils.encode_positions([p, p + k], d, base=base)
    distance_sq = float(np.sum((rows[1] - rows[0]) ** 2))
    assert math.isclose(distance_sq, chord_sq, rel_tol=1e-9, abs_tol=1e-9)


@settings(deadline=None)
@given(omega=st.floats(min_value=0.0, max_value=math.pi), p=st.integers(0, 1000))
def test_frequencies_above_pi_alias_at_integer_positions(omega, p):
    # 2π − ω gives the same cosine and the opposite sine at every integer p
    mirrored = 2 * math.pi - omega
    assert math.isclose(math.cos(p * mirrored), math.cos(p * omega), abs_tol=1e-9)
    assert math.isclose(math.sin(p * mirrored), -math.sin(p * omega), abs_tol=1e-9)


def test_pair_zero_near_returns_are_the_convergents_of_two_pi():
    # 2π = [6; 3, 1, 1, 7, 2, 146, …]; numerators 6, 19, 25, 44, 333, 710, 103993
    table = pe_utils.encode_positions([0, 44, 710, 103993], 64)
    pair0 = np.linalg.norm(table[1:, :2] - table[0, :2], axis=1)
    np.testing.assert_allclose(pair0, [2 * abs(math.sin(k / 2)) for k in (44, 710, 103993)], rtol=1e-6)
    assert pair0[1] < 1e-4 and pair0[2] < 1e-4
    rest = np.linalg.norm(table[1:, 2:] - table[0, 2:], axis=1)
    assert np.all(rest > 4)  # the slower pairs keep the rows apart


def test_direct_formula_entries_are_bounded_without_clipping():
    # the direct builder only evaluates sin and cos; check it at large scattered positions
    positions = np.random.default_rng(3).uniform(-1e6, 1e6, size=500)
    table = pe_utils.encode_positions(positions, 64)
    assert table.min() >= -1 and table.max() <= 1
