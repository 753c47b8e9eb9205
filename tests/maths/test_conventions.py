"""Notebook 07: named conventions against their defining formulas, written here independently."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pe_utils as pu
from pe_utils.conventions import (
    CONVENTIONS,
    convention_table,
    convert_layout,
    detect_convention,
    frequencies_variant,
    sinusoidal_pe_variant,
)
from tests.strategies import bases, d_models, layouts

counts = st.integers(min_value=0, max_value=40)
big_d_models = st.integers(min_value=2, max_value=32).map(lambda half: 2 * half)  # d ≥ 4


def paper_by_hand(n, d):
    """Vaswani et al.: PE(p)[2i] = sin(p / 10000^(2i/d)), PE(p)[2i+1] = cos(…), loops."""
    table = np.zeros((n, d))
    for p in range(n):
        for i in range(d // 2):
            angle = p / 10000 ** (2 * i / d)
            table[p, 2 * i], table[p, 2 * i + 1] = math.sin(angle), math.cos(angle)
    return table


def t2t_by_hand(n, d):
    """A NumPy transcription of tensor2tensor's get_timing_signal_1d (even d)."""
    half = d // 2
    increment = math.log(1.0e4 / 1.0) / (half - 1)
    inv_timescales = np.exp(np.arange(half) * -increment)
    scaled = np.arange(n, dtype=float)[:, None] * inv_timescales[None, :]
    return np.concatenate([np.sin(scaled), np.cos(scaled)], axis=1)


def fairseq_by_hand(num_embeddings, d, padding_idx):
    """A NumPy transcription of fairseq's get_embedding: t2t rows, row padding_idx zeroed."""
    half = d // 2
    step = math.log(10000) / (half - 1)
    emb = np.exp(np.arange(half) * -step)
    emb = np.arange(num_embeddings)[:, None] * emb[None, :]
    emb = np.concatenate([np.sin(emb), np.cos(emb)], axis=1)
    emb[padding_idx, :] = 0
    return emb


def marian_by_hand(n, d):
    """Marian: angles p / 10000^(2(j//2)/d), sines of even j first, then cosines of odd j."""
    angles = np.array([[p / np.power(10000, 2 * (j // 2) / d) for j in range(d)] for p in range(n)])
    angles = angles.reshape(n, d)
    return np.concatenate([np.sin(angles[:, 0::2]), np.cos(angles[:, 1::2])], axis=1)


@given(n=counts, d=d_models)
def test_vaswani2017_is_the_paper_formula(n, d):
    np.testing.assert_allclose(convention_table("vaswani2017", n, d), paper_by_hand(n, d), atol=1e-12)


@given(n=counts, d=big_d_models)
def test_tensor2tensor_is_its_timing_signal(n, d):
    np.testing.assert_allclose(convention_table("tensor2tensor", n, d), t2t_by_hand(n, d), atol=1e-12)


@given(n=counts, d=big_d_models)
def test_fairseq_tokens_start_after_the_padding_row(n, d):
    padding_idx = 1  # fairseq's default Dictionary: bos 0, pad 1
    library_table = fairseq_by_hand(n + padding_idx + 1, d, padding_idx)
    # Token t of a sequence without padding gets make_positions = t + padding_idx + 1.
    expected = library_table[padding_idx + 1 :]
    np.testing.assert_allclose(convention_table("fairseq", n, d), expected, atol=1e-12)


@given(n=counts, d=d_models)
def test_marian_is_its_formula(n, d):
    np.testing.assert_allclose(convention_table("marian", n, d), marian_by_hand(n, d), atol=1e-12)


def test_registry_fields():
    assert list(CONVENTIONS) == ["vaswani2017", "tensor2tensor", "fairseq", "marian"]
    assert CONVENTIONS["fairseq"].first_position == 2
    assert all(c.layout in pu.LAYOUTS for c in CONVENTIONS.values())


def test_frequencies_variant_hand_values():
    # d = 6, base 10000: D = 3 → 10000^(−i/3); D = 2 → 10000^(−i/2) = 1, 0.01, 0.0001.
    np.testing.assert_allclose(frequencies_variant(6), [1.0, 10000 ** (-1 / 3), 10000 ** (-2 / 3)])
    np.testing.assert_allclose(frequencies_variant(6, denominator="d/2-1"), [1.0, 1e-2, 1e-4])
    # The paper's denominator D = d/2: ω_i = 10000^(−2i/64), written here from the formula.
    paper = [10000 ** (-2 * i / 64) for i in range(32)]
    np.testing.assert_allclose(frequencies_variant(64), paper, rtol=1e-14)


@given(d=big_d_models, base=bases)
def test_frequencies_run_from_one_to_the_lowest(d, base):
    t2t = frequencies_variant(d, denominator="d/2-1", base=base)
    paper = frequencies_variant(d, base=base)
    assert t2t[0] == paper[0] == 1.0
    assert t2t[-1] == pytest.approx(1 / base, rel=1e-12)
    assert paper[-1] == pytest.approx(base ** (-(d - 2) / d), rel=1e-12)
    # Same ends only at i = 0: D = d/2 − 1 < d/2 makes every later ω_i smaller.
    assert np.all(t2t[1:] < paper[1:])


@given(n=counts, d=d_models, first=st.integers(0, 50), layout=layouts)
def test_first_position_moves_the_rows_down(n, d, first, layout):
    # Row t of a table that starts at p = first is row first + t of one that starts at 0.
    shifted = sinusoidal_pe_variant(n, d, first_position=first, layout=layout)
    from_zero = sinusoidal_pe_variant(first + n, d, layout=layout)
    np.testing.assert_allclose(shifted, from_zero[first:], rtol=0, atol=1e-12)


def test_variant_first_position_and_dtype():
    table = sinusoidal_pe_variant(3, 4, first_position=5, dtype=np.float32)
    assert table.dtype == np.float32
    np.testing.assert_allclose(table, paper_by_hand(8, 4)[5:], atol=1e-7)


@given(n=counts, d=d_models, seed=st.integers(0, 2**16))
def test_convert_layout_round_trip_and_permutation(n, d, seed):
    table = np.random.default_rng(seed).normal(size=(n, d))
    order = pu.layout_permutation(d)
    concatenated = convert_layout(table, "interleaved", "concatenated")
    np.testing.assert_array_equal(concatenated, table[:, order])
    np.testing.assert_allclose(concatenated, table @ pu.permutation_matrix(order).T)
    np.testing.assert_array_equal(convert_layout(concatenated, "concatenated", "interleaved"), table)
    np.testing.assert_array_equal(convert_layout(table, "concatenated", "concatenated"), table)


@given(n=counts, d=d_models)
def test_paper_table_in_halves_is_marian(n, d):
    halves = convert_layout(paper_by_hand(n, d), "interleaved", "concatenated")
    np.testing.assert_allclose(halves, marian_by_hand(n, d), atol=1e-12)


def test_convert_layout_by_hand_d6():
    row = np.array([[0, 1, 2, 3, 4, 5]])
    np.testing.assert_array_equal(convert_layout(row, "interleaved", "concatenated"), [[0, 2, 4, 1, 3, 5]])
    np.testing.assert_array_equal(convert_layout(row, "concatenated", "interleaved"), [[0, 3, 1, 4, 2, 5]])


def test_convert_layout_keeps_dtype_and_copies():
    table = np.ones((2, 4), dtype=np.float16)
    out = convert_layout(table, "interleaved", "interleaved")
    assert out.dtype == np.float16 and out is not table


@pytest.mark.parametrize("name", list(CONVENTIONS))
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_detect_recognises_each_convention(name, dtype):
    table = convention_table(name, 32, 16).astype(dtype)
    assert detect_convention(table) == (name,)


def test_detect_no_match_and_ambiguity():
    # Reordering columns does not change the frequencies: t2t in interleaved order matches nothing.
    t2t = convention_table("tensor2tensor", 32, 16)
    assert detect_convention(convert_layout(t2t, "concatenated", "interleaved")) == ()
    # One row at p = 0 cannot tell the denominators apart.
    assert detect_convention(convention_table("tensor2tensor", 1, 16)) == ("tensor2tensor", "marian")
    assert detect_convention(t2t, candidates=["fairseq"]) == ()
    # d = 2 skips the d/2 − 1 conventions instead of failing; both layouts are [sin, cos] there.
    assert detect_convention(paper_by_hand(4, 2)) == ("vaswani2017", "marian")


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="name.*'vaswani2017'.*'fairseq'"):
        convention_table("t5", 4, 8)
    with pytest.raises(ValueError, match="d_model"):
        convention_table("vaswani2017", 4, 7)
    with pytest.raises(ValueError, match="n_positions"):
        convention_table("vaswani2017", -1, 8)
    with pytest.raises(ValueError, match="denominator.*'d/2'"):
        sinusoidal_pe_variant(4, 8, denominator="d")
    with pytest.raises(ValueError, match="d_model"):
        sinusoidal_pe_variant(4, 2, denominator="d/2-1")
    with pytest.raises(ValueError, match="first_position"):
        sinusoidal_pe_variant(4, 8, first_position=-1)
    with pytest.raises(ValueError, match="base"):
        sinusoidal_pe_variant(4, 8, base=0.5)
    with pytest.raises(ValueError, match="layout"):
        sinusoidal_pe_variant(4, 8, layout="blocks")
    with pytest.raises(TypeError, match="dtype"):
        sinusoidal_pe_variant(4, 8, dtype=np.int32)
    with pytest.raises(ValueError, match="table"):
        sinusoidal_pe_variant(10**9, 512)
    with pytest.raises(ValueError, match="from_layout"):
        convert_layout(np.ones((2, 4)), "sin-cos", "interleaved")
    with pytest.raises(ValueError, match="to_layout"):
        convert_layout(np.ones((2, 4)), "interleaved", None)
    with pytest.raises(ValueError, match="d_model"):
        convert_layout(np.ones((2, 5)), "interleaved", "concatenated")
    with pytest.raises(ValueError, match="table"):
        convert_layout(np.array([np.nan, 1.0]), "interleaved", "concatenated")
    with pytest.raises(ValueError, match="table"):
        detect_convention(np.ones(4))
    with pytest.raises(ValueError, match="d_model"):
        detect_convention(np.ones((3, 5)))
    with pytest.raises(ValueError, match="atol"):
        detect_convention(np.ones((3, 4)), atol=0)
    with pytest.raises(ValueError, match="candidates"):
        detect_convention(np.ones((3, 4)), candidates=["t5"])
    with pytest.raises(TypeError, match="candidates"):
        detect_convention(np.ones((3, 4)), candidates="fairseq")
    with pytest.raises(ValueError, match="d_model"):
        frequencies_variant(0)
