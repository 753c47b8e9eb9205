"""Tests of pe_utils.frequency_use (notebook 13): p-RoPE, the critical dimension, the base bound.

Expected values are derived here by hand (plain loops over pairs with ``math``), read from the
papers (Liu et al.'s 92, Men et al.'s Table 2) or from Gemma's published test, never copied from
the code's output.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pe_utils as pu
import pe_utils.frequency_use as frequency_use
from pe_utils.frequency_use import (
    MAX_OFFSET,
    MAX_TERMS,
    critical_dimension,
    first_negative_offset,
    p_rope_frequencies,
    rotated_pairs,
    smallest_base,
)
from tests.strategies import bases, d_models

# --- p-RoPE -------------------------------------------------------------------------------------


def test_p_rope_keeps_the_fastest_pairs_with_the_full_grid():
    # d = 16, p = 0.25: K = 2 pairs rotate, with 10000^(−2i/16), the others are still
    expected = [1.0, 10000.0 ** (-2 / 16), 0, 0, 0, 0, 0, 0]
    np.testing.assert_allclose(p_rope_frequencies(16, 0.25), expected, rtol=1e-15)
    # cut, not respaced: a respaced grid would give pair 1 the frequency 10000^(−2/4)
    assert p_rope_frequencies(16, 0.25)[1] != pytest.approx(10000.0 ** (-2 / 4))


@pytest.mark.parametrize(
    ("d_model", "proportion", "pairs"),
    [
        (16, 0.25, 2),
        (16, 0.75, 6),
        (16, 1.0, 8),
        (16, 0.0, 0),
        (10, 0.3, 1),
        (256, 0.25, 32),
        (20, 0.7, 7),
    ],  # 0.7 · 20 is 14.0 in floating point, as in the paper's int(p * d // 2)
)
def test_rotated_pairs_follow_the_published_rule(d_model, proportion, pairs):
    assert rotated_pairs(d_model, proportion) == pairs


def _half_split_rotation(x, position, omega):
    """Gemma's apply_rope, written out: first half · cos − second half · sin, and so on."""
    half = len(x) // 2
    first, second = x[:half], x[half:]
    angle = position * omega
    return np.concatenate(
        [first * np.cos(angle) - second * np.sin(angle), second * np.cos(angle) + first * np.sin(angle)]
    )


@pytest.mark.parametrize(
    ("proportion", "expected"),
    [(1.0, [-0.30116868, 0.89517075, 1.3817732, 1.0948375]), (0.5, [-0.30116868, 1.0, 1.3817732, 1.0])],
)
def test_gemma_published_test_values(proportion, expected):
    # google-deepmind/gemma @ 7691fd4e, gemma/gm/math/_positional_embeddings_test.py: head_dim 4,
    # base 100, all-ones input at position 1, rope_proportion 1.0 and 0.5 (float32 there)
    rotated = _half_split_rotation(np.ones(4), 1.0, p_rope_frequencies(4, proportion, base=100.0))
    np.testing.assert_allclose(rotated, expected, atol=1e-6)


def test_p_rope_with_proportion_one_is_the_course_rope():
    x = np.random.default_rng(0).normal(size=8)
    by_hand = _half_split_rotation(x, 3.0, p_rope_frequencies(8, 1.0))
    np.testing.assert_allclose(by_hand, pu.rope(x, 3.0, layout="concatenated"), atol=1e-12)


@given(d=d_models, base=bases, proportion=st.floats(0, 1))
def test_p_rope_frequencies_cut_the_grid(d, base, proportion):
    omega, full = p_rope_frequencies(d, proportion, base=base), pu.frequencies(d, base)
    kept = int(proportion * d // 2)
    np.testing.assert_array_equal(omega[:kept], full[:kept])
    assert np.all(omega[kept:] == 0.0)
    np.testing.assert_array_equal(p_rope_frequencies(d, 1.0, base=base), full)  # p = 1: RoPE
    assert not np.any(p_rope_frequencies(d, 0.0, base=base))  # p = 0: none
    assert rotated_pairs(d, proportion) <= rotated_pairs(d, min(1.0, proportion + 0.25))


# --- the critical dimension -----------------------------------------------------------------------


def _pairs_with_a_full_turn(d_model, base, length):
    return sum(1 for i in range(d_model // 2) if 2 * math.pi * base ** (2 * i / d_model) <= length)


def test_llama_2_gives_liu_et_al_s_92():
    # Liu et al. (README of OpenLMLab/scaling-rope): d = 128, base 10000, T_train = 4096 → 92
    assert critical_dimension(128, 4096) == 92
    assert 2 * _pairs_with_a_full_turn(128, 10000.0, 4096) == 92


@pytest.mark.parametrize(
    ("d_model", "base", "length"),
    [
        (128, 1e4, 2048),
        (128, 5e5, 8192),
        (128, 1e6, 32768),
        (64, 1e4, 2048),
        (256, 1e4, 8192),
        (16, 10.0, 100),
    ],
)
def test_critical_dimension_counts_the_pairs_by_hand(d_model, base, length):
    expected = 2 * _pairs_with_a_full_turn(d_model, base, length)
    assert critical_dimension(d_model, length, base=base) == expected


def test_critical_dimension_at_the_ends_and_where_the_log_is_whole():
    assert critical_dimension(16, 6.0) == 0  # below 2π no pair completes a turn
    assert critical_dimension(16, 1e30) == 16  # every pair does
    # base 16, d = 4: λ = 2π, 8π. With T = 8π, (d/2)·log_16(T/2π) = 1 is whole: the count (2 pairs)
    # is 2 dimensions more than eq. 13's 2⌈1⌉ = 2
    assert critical_dimension(4, 8 * math.pi, base=16.0) == 4


@settings(max_examples=60)
@given(d=d_models, base=bases, length=st.floats(1.0, 1e7))
def test_the_critical_pair_is_the_last_to_complete_a_turn(d, base, length):
    pairs = critical_dimension(d, length, base=base) // 2
    lam = pu.wavelengths(d, base)
    if pairs > 0:
        assert lam[pairs - 1] <= length
    if pairs < d // 2:
        assert lam[pairs] > length
    x = d / 2 * math.log(length / (2 * math.pi)) / math.log(base)  # eq. 13's argument
    if 0 <= x < d / 2 - 1 and abs(x - round(x)) > 1e-9:
        assert 2 * pairs == 2 * math.ceil(x)


# --- the profile and the smallest base --------------------------------------------------------------


def _profile_by_hand(m, d_model, base):
    return sum(math.cos(m * base ** (-2 * i / d_model)) for i in range(d_model // 2))


def test_first_negative_offset_of_small_cases_by_hand():
    # d = 2: B_m = cos m, first negative at m = 2 (cos 2 < 0 < cos 1), whatever the base
    assert first_negative_offset(2, 10.0, max_offset=10) == 2
    # d = 4, base 4: B_m = cos m + cos(m/2): 2, 1.42, 0.12, −0.92 → first negative at 3
    assert [round(_profile_by_hand(m, 4, 4.0), 2) for m in range(4)] == [2.0, 1.42, 0.12, -0.92]
    assert first_negative_offset(4, 4.0, max_offset=10) == 3
    assert first_negative_offset(4, 4.0, max_offset=2) == 3  # none up to 2: max_offset + 1
    assert first_negative_offset(4, 4.0, max_offset=3) == 3  # m = max_offset itself is checked
    assert first_negative_offset(4, 4.0, max_offset=0) == 1
    both = first_negative_offset(4, [[4.0, 4.0], [4.0, 4.0]], max_offset=10)
    assert both.shape == (2, 2) and np.all(both == 3)


def test_a_larger_base_can_fail_where_a_smaller_one_works():
    # L = 4096, d = 128: base 26,960 keeps B ≥ 0, 27,000 does not (notebook 13, §5)
    assert first_negative_offset(128, 26_960.0, max_offset=4096) == 4097
    failing = int(first_negative_offset(128, 27_000.0, max_offset=4096))
    assert failing <= 4096 and _profile_by_hand(failing, 128, 27_000.0) < 0
    assert smallest_base(4096, 128, [27_000.0, 26_960.0]) == 26_960.0
    with pytest.raises(ValueError, match="candidates must include a base"):
        smallest_base(4096, 128, [27_000.0, 28_000.0])


def test_smallest_base_checks_the_last_offset_m_equal_to_l():
    # eq. 11 asks B_m ≥ 0 for every m = 0 … L, L included. By hand (math.cos, one pair at a time):
    # at d = 128 base 27,000 keeps B ≥ 0 up to m = 4078 (smallest 0.58, at m = 3478, far from 0)
    # and B(4079) ≈ −0.092, so L = 4078 passes and L = 4079 must not
    by_hand = [_profile_by_hand(m, 128, 27_000.0) for m in range(4080)]
    assert min(by_hand[:4079]) > 0.5 and -0.1 < by_hand[4079] < -0.05
    assert smallest_base(4078, 128, [27_000.0]) == 27_000.0
    with pytest.raises(ValueError, match="candidates must include a base"):
        smallest_base(4079, 128, [27_000.0])
    # with a base that holds further (28,700: B ≥ 0 up to 4096, checked here too) it is the answer
    assert min(_profile_by_hand(m, 128, 28_700.0) for m in range(4097)) >= 0
    assert smallest_base(4079, 128, [27_000.0, 28_700.0]) == 28_700.0
    assert first_negative_offset(128, 27_000.0, max_offset=4078) == 4079  # none up to 4078
    assert first_negative_offset(128, 27_000.0, max_offset=4079) == 4079  # found at m = L itself


TABLE_2 = {1000: 4.3e3, 2000: 1.6e4, 4000: 2.7e4, 8000: 8.4e4}  # Men et al., Table 2


@pytest.mark.parametrize(("length", "paper"), TABLE_2.items())
def test_men_et_al_table_2_on_a_two_figure_grid(length, paper):
    grid = [m / 10 * 10.0**e for e in (3, 4) for m in range(10, 100)]
    assert smallest_base(length, 128, grid) == paper


@pytest.mark.parametrize(("length", "paper"), [(16_000, 3.1e5), (32_000, 6.4e5)])
def test_men_et_al_values_that_fail_their_own_condition(length, paper):
    m = int(first_negative_offset(128, paper, max_offset=length))
    assert m <= length and _profile_by_hand(m, 128, paper) < 0


@settings(max_examples=40, deadline=None)
@given(d=d_models, base=st.floats(1.5, 3e4), max_offset=st.integers(0, 3000))
def test_first_negative_offset_scans_notebook_05s_profile(d, base, max_offset):
    # B_{m,θ} is notebook 05's profile f(m): the first negative entry of a plain scan
    profile = pu.similarity_profile(np.arange(max_offset + 1), d, base=base)
    negative = np.flatnonzero(profile < 0)
    expected = int(negative[0]) if negative.size else max_offset + 1
    assert first_negative_offset(d, base, max_offset=max_offset) == expected


@pytest.mark.parametrize("block", [1, 2, 3, 5])
def test_every_offset_is_scanned_whatever_the_block(monkeypatch, block):
    # blocks of 1, 2, 3, 5 offsets (and a product small enough for rows to double several times):
    # no offset is skipped between blocks, and the last one, m = max_offset, is checked
    monkeypatch.setattr(frequency_use, "_BLOCK", block)
    monkeypatch.setattr(frequency_use, "_PRODUCT", block * 4 * 8)
    for base in np.random.default_rng(0).uniform(1.5, 50.0, size=200):
        negative = np.flatnonzero(pu.similarity_profile(np.arange(61), 4, base=base) < 0)
        first = int(negative[0]) if negative.size else 61
        for top in {max(first - 1, 0), min(first, 60), 60}:
            expected = first if first <= top else top + 1
            assert first_negative_offset(4, base, max_offset=top) == expected, (base, top)


def test_the_term_budget_refuses_many_bases_not_one_long_scan():
    assert MAX_OFFSET * (128 // 2) < MAX_TERMS  # one base, every offset, d = 128: allowed
    assert 630 * 1_024_001 * (128 // 2) < MAX_TERMS  # notebook 13's grid at L = 1M (its sweep)
    assert 1000 * (MAX_OFFSET + 1) * (128 // 2) > MAX_TERMS


def test_a_large_head_with_few_offsets_needs_only_those_offsets():
    # the table of steps has min(128, max_offset + 1) rows: d = 2¹⁶ with 3 offsets is small and quick
    profile = pu.similarity_profile(np.arange(3), 2**16, base=1.5)
    negative = np.flatnonzero(profile < 0)
    expected = int(negative[0]) if negative.size else 3
    assert first_negative_offset(2**16, 1.5, max_offset=2) == expected


GRID_10_3_TO_10_9 = [m / 10 * 10.0**e for e in range(3, 10) for m in range(10, 100)]  # 2 s.f.


@pytest.mark.parametrize(
    ("length", "expected"), [(16_000, 3.2e5), (32_000, 6.3e5), (64_000, 2.1e6), (128_000, 7.8e6)]
)
def test_men_et_al_longer_columns_on_a_two_figure_grid(length, expected):
    # notebook 13's table (about 1 s of CPU in all): 64k and 128k are the paper's values (2.1e6,
    # 7.8e6); at 16k and 32k the paper's 3.1e5 and 6.4e5 fail (test below), and the grid gives these,
    # confirmed by a plain scan: the base keeps B ≥ 0 up to L, the grid's base below it does not.
    found = smallest_base(length, 128, GRID_10_3_TO_10_9)
    assert found == expected
    if length <= 32_000:
        offsets = np.arange(length + 1)
        assert np.all(pu.similarity_profile(offsets, 128, base=found) >= 0)
        below = GRID_10_3_TO_10_9[GRID_10_3_TO_10_9.index(found) - 1]
        assert np.any(pu.similarity_profile(offsets, 128, base=below) < 0)


@settings(max_examples=25, deadline=None)
@given(length=st.integers(1, 2000), candidates=st.lists(st.floats(1.5, 1e5), min_size=1, max_size=8))
def test_smallest_base_is_the_first_candidate_that_works(length, candidates):
    works = [
        c for c in sorted(candidates) if np.all(pu.similarity_profile(np.arange(length + 1), 32, base=c) >= 0)
    ]
    if works:
        assert smallest_base(length, 32, candidates) == works[0]
    else:
        with pytest.raises(ValueError, match="try larger bases"):
            smallest_base(length, 32, candidates)


# --- bad input ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "phrase"),
    [
        (lambda: p_rope_frequencies(16, 1.5), ValueError, "proportion must be a number from 0 to 1"),
        (lambda: p_rope_frequencies(16, -0.1), ValueError, "proportion"),
        (lambda: p_rope_frequencies(16, float("nan")), ValueError, "proportion"),
        (lambda: p_rope_frequencies(16, True), TypeError, "proportion"),
        (lambda: p_rope_frequencies(16, "0.5"), TypeError, "proportion"),
        (lambda: p_rope_frequencies(15, 0.5), ValueError, "d_model"),
        (lambda: p_rope_frequencies(16, 0.5, base=1.0), ValueError, "base"),
        (lambda: rotated_pairs(16.0, 0.5), TypeError, "d_model"),
        (lambda: critical_dimension(128, 0), ValueError, "train_length"),
        (lambda: critical_dimension(128, -4096), ValueError, "train_length"),
        (lambda: critical_dimension(128, float("inf")), ValueError, "train_length"),
        (lambda: critical_dimension(128, "4096"), TypeError, "train_length"),
        (lambda: critical_dimension(127, 4096), ValueError, "d_model"),
        (lambda: critical_dimension(128, 4096, base=0.5), ValueError, "base"),
        (lambda: first_negative_offset(128, 1.0, max_offset=10), ValueError, "bases must be numbers greater"),
        (lambda: first_negative_offset(128, [1e4, np.nan], max_offset=10), ValueError, "bases"),
        (lambda: first_negative_offset(128, "1e4", max_offset=10), TypeError, "bases"),
        (lambda: first_negative_offset(128, 1e4, max_offset=-1), ValueError, "max_offset"),
        (lambda: first_negative_offset(128, 1e4, max_offset=10.0), TypeError, "max_offset"),
        (lambda: first_negative_offset(128, 1e4, max_offset=MAX_OFFSET + 1), ValueError, "at most"),
        (lambda: first_negative_offset(2**40, 1e4, max_offset=10), ValueError, "GiB"),
        # d = 2²⁰ with 128 steps: four 1 GiB tables at their peak, refused before any work
        (lambda: first_negative_offset(2**20, 1e4, max_offset=1000), ValueError, "working arrays"),
        (
            lambda: first_negative_offset(128, np.full(1000, 1e4), max_offset=10**8),
            ValueError,
            r"bases × \(max_offset \+ 1\) × d_model/2 must be at most",
        ),
        (
            lambda: smallest_base(10**8, 128, np.full(1000, 1e4)),
            ValueError,
            r"candidates × \(length \+ 1\) × d_model/2 must be at most",
        ),
        (lambda: first_negative_offset(7, 1e4, max_offset=10), ValueError, "d_model"),
        (lambda: smallest_base(0, 128, [1e4]), ValueError, "length"),
        (lambda: smallest_base(10**9, 128, [1e4]), ValueError, "length must be at most"),
        (lambda: smallest_base(100, 128, []), ValueError, "at least one base"),
        (lambda: smallest_base(100, 128, ["1e4"]), TypeError, "candidates"),
        (lambda: smallest_base(100, 128, [0.5, 1e4]), ValueError, "candidates must be numbers greater"),
    ],
)
def test_bad_arguments_are_named(call, error, phrase):
    with pytest.raises(error, match=phrase):
        call()
