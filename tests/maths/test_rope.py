"""Notebook 08: RoPE rotates pairs counter-clockwise, as the libraries do; scores depend on q − p."""

import cmath
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pe_utils as pu
from pe_utils.rope import rope
from tests.strategies import bases, d_models, layouts, offsets


def rope_by_complex_numbers(row, p, base=10000.0):
    """Meta's Llama reference, in plain Python: pair (2i, 2i+1) is x[2i] + 1j·x[2i+1], times e^{i p ω_i}."""
    d = len(row)
    out = []
    for i in range(d // 2):
        z = complex(row[2 * i], row[2 * i + 1]) * cmath.exp(1j * p * base ** (-2 * i / d))
        out += [z.real, z.imag]
    return np.array(out)


def rope_by_rotate_half(row, p, base=10000.0):
    """GPT-NeoX / Hugging Face: x·cos + rotate_half(x)·sin, cos and sin repeated over both halves."""
    d = len(row)
    half = d // 2
    angles = [p * base ** (-2 * i / d) for i in range(half)] * 2
    rotated_half = [-row[half + j] for j in range(half)] + [row[j] for j in range(half)]
    return np.array([row[j] * math.cos(angles[j]) + rotated_half[j] * math.sin(angles[j]) for j in range(d)])


def test_quarter_turn_is_counter_clockwise():
    # d = 2, ω_0 = 1: the x axis turns to the y axis, R(π/2) [1, 0] = [0, 1].
    np.testing.assert_allclose(rope([[1.0, 0.0]], [math.pi / 2]), [[0.0, 1.0]], atol=1e-15)
    np.testing.assert_allclose(rope([[0.0, 1.0]], [math.pi / 2]), [[-1.0, 0.0]], atol=1e-15)


def test_concatenated_pairs_dimension_i_with_i_plus_half():
    # d = 4: pair 0 is dims (0, 2), pair 1 dims (1, 3) with ω_1 = base^(-1/2) = 0.1 for base 100.
    x = np.array([1.0, 0.0, 0.0, 0.0])
    theta = 3.0
    expected = np.array([math.cos(theta), 0.0, math.sin(theta), 0.0])
    np.testing.assert_allclose(rope(x, theta, base=100.0, layout="concatenated"), expected, atol=1e-15)
    x = np.array([0.0, 1.0, 0.0, 0.0])
    expected = np.array([0.0, math.cos(0.1 * theta), 0.0, math.sin(0.1 * theta)])
    np.testing.assert_allclose(rope(x, theta, base=100.0, layout="concatenated"), expected, atol=1e-15)


def test_position_zero_is_identity():
    x = np.arange(12.0).reshape(3, 4)
    for layout in ("interleaved", "concatenated"):
        np.testing.assert_array_equal(rope(x, [0, 0, 0], layout=layout), x)


def test_interleaved_matches_complex_multiplication():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(5, 8))
    positions = np.array([0.0, 1.0, 7.0, 100.0, -3.5])
    expected = np.array([rope_by_complex_numbers(row, p, 100.0) for row, p in zip(x, positions, strict=True)])
    np.testing.assert_allclose(rope(x, positions, base=100.0), expected, atol=1e-13)


def test_concatenated_matches_rotate_half():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(4, 6))
    positions = np.array([0.0, 2.0, 33.0, 1000.0])
    expected = np.array([rope_by_rotate_half(row, p) for row, p in zip(x, positions, strict=True)])
    np.testing.assert_allclose(rope(x, positions, layout="concatenated"), expected, atol=1e-12)


def test_the_two_layouts_differ_by_layout_permutation():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 10))
    order = pu.layout_permutation(10)
    positions = [1.0, 5.0, 40.0]
    np.testing.assert_allclose(
        rope(x[:, order], positions, layout="concatenated"), rope(x, positions)[:, order], atol=1e-13
    )


def test_pe_row_is_rotated_to_an_earlier_row():
    # R_p = T_{-p}: rotating PE(p + 5) by 5 gives PE(p).
    table = pu.sinusoidal_pe(20, 8)
    np.testing.assert_allclose(rope(table[5:], np.full(15, 5)), table[:15], atol=1e-12)


def test_batched_heads_share_positions():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(3, 4, 6))
    positions = np.array([0, 2, 5, 9])
    out = rope(x, positions)
    for head in range(3):
        np.testing.assert_allclose(out[head], rope(x[head], positions), atol=1e-15)


def test_scaling_none_uses_the_plain_frequencies():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2, 8))
    np.testing.assert_array_equal(rope(x, [3, 4], scaling=None), rope(x, [3, 4]))


@given(d=d_models, p=offsets, base=bases, layout=layouts, seed=st.integers(0, 2**16))
def test_rope_is_the_transpose_of_shift_matrix(d, p, base, layout, seed):
    x = np.random.default_rng(seed).normal(size=(3, d))
    T = pu.shift_matrix(p, d, base=base, layout=layout)
    # row by row R_p x = T_p^T x, i.e. the rows of x times T_p
    np.testing.assert_allclose(rope(x, np.full(3, p), base=base, layout=layout), x @ T, atol=1e-11)


@given(
    d=d_models, p=offsets, q=offsets, shift=offsets, base=bases, layout=layouts, seed=st.integers(0, 2**16)
)
def test_score_depends_on_offset_only(d, p, q, shift, base, layout, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=(2, d))
    kw = {"base": base, "layout": layout, "scaling": None}
    score = rope(a, p, **kw) @ rope(b, q, **kw)
    moved = rope(a, p + shift, **kw) @ rope(b, q + shift, **kw)
    # (R_p a)·(R_q b) = a·R_{q−p} b: rotate b alone by q − p
    relative = a @ rope(b, q - p, **kw)
    np.testing.assert_allclose(score, relative, atol=1e-9 * (1 + np.abs(a) @ np.abs(b)))
    np.testing.assert_allclose(moved, score, atol=1e-9 * (1 + np.abs(a) @ np.abs(b)))


@given(d=d_models, p=offsets, layout=layouts, seed=st.integers(0, 2**16))
def test_rotation_keeps_the_norm(d, p, layout, seed):
    x = np.random.default_rng(seed).normal(size=d)
    np.testing.assert_allclose(np.linalg.norm(rope(x, p, layout=layout)), np.linalg.norm(x), rtol=1e-12)


@given(d=d_models, p=offsets, q=offsets, base=bases, layout=layouts)
def test_rotations_compose(d, p, q, base, layout):
    x = np.eye(d)
    kw = {"base": base, "layout": layout}
    np.testing.assert_allclose(rope(rope(x, p, **kw), q, **kw), rope(x, p + q, **kw), atol=1e-9)


def test_bad_inputs_name_the_argument():
    x = np.ones((3, 4))
    with pytest.raises(ValueError, match="d_model"):
        rope(np.ones((3, 5)), [0, 1, 2])
    with pytest.raises(ValueError, match="d_model"):
        rope(1.0, 0)
    with pytest.raises(ValueError, match="base"):
        rope(x, [0, 1, 2], base=1.0)
    with pytest.raises(TypeError, match="base"):
        rope(x, [0, 1, 2], base="10000")
    with pytest.raises(ValueError, match="positions"):
        rope(x, [0, np.nan, 2])
    with pytest.raises(ValueError, match="x"):
        rope([[np.inf, 0.0]], [0])
    with pytest.raises(ValueError, match=r"positions of shape \(2,\).*x of shape \(3, 4\)"):
        rope(x, [0, 1])
    with pytest.raises(ValueError, match="positions.*x"):
        rope(x, np.zeros((3, 3)))
    with pytest.raises(ValueError, match="layout.*'interleaved'"):
        rope(x, [0, 1, 2], layout="halves")
    with pytest.raises(TypeError, match="positions"):
        rope(x, ["a", "b", "c"])
    with pytest.raises(TypeError, match="x"):
        rope([[True, False]], [0])


# --- partial rotary: rotary_dims (notebook 11) -----------------------------------------------------


def test_rotary_dims_by_hand():
    # d = 4, r = 2: only pair (0, 1) turns, with ω_0 = base^0 = 1; a quarter turn maps (1, 0) to (0, 1)
    np.testing.assert_allclose(
        rope([1.0, 0.0, 5.0, 7.0], math.pi / 2, rotary_dims=2), [0.0, 1.0, 5.0, 7.0], atol=1e-15
    )
    # d = 6, r = 4, base 100, half-split within the first 4: pairs (0, 2) with ω = 1 and (1, 3) with
    # ω = 100^(−2/4) = 0.1 (the frequencies of a 4-dimensional RoPE, not of d = 6); dims 4, 5 untouched
    x = np.array([0.0, 1.0, 0.0, 0.0, 3.0, 4.0])
    theta = 2.0
    expected = [0.0, math.cos(0.1 * theta), 0.0, math.sin(0.1 * theta), 3.0, 4.0]
    np.testing.assert_allclose(
        rope(x, theta, base=100.0, layout="concatenated", rotary_dims=4), expected, atol=1e-15
    )


def gptj_from_source(x, positions, rotary_dim):
    """transformers models/gptj/modeling_gptj.py @ cb6cd7e9: create_sinusoidal_positions, rotate_every_two,
    apply_rotary_pos_emb and the rotary_dim split of GPTJAttention.forward, in NumPy."""
    inv_freq = 1.0 / (10000 ** (np.arange(0, rotary_dim, 2) / rotary_dim))
    sinusoid = np.outer(positions, inv_freq)
    sin, cos = np.sin(sinusoid), np.cos(sinusoid)
    rot, keep = x[:, :rotary_dim], x[:, rotary_dim:]
    every_two = np.stack((-rot[:, 1::2], rot[:, 0::2]), axis=-1).reshape(rot.shape)
    turned = rot * np.repeat(cos, 2, axis=1) + every_two * np.repeat(sin, 2, axis=1)
    return np.concatenate([turned, keep], axis=1)


def neox_from_source(x, positions, rotary_ndims, base=10000.0):
    """EleutherAI/gpt-neox megatron/model/positional_embeddings.py and transformer.py @ ea7aefd8:
    inv_freq over rotary_ndims, emb = cat(freqs, freqs), x·cos + rotate_half(x)·sin on the first
    rotary_ndims dimensions, the rest concatenated back."""
    inv_freq = 1.0 / base ** (np.arange(0, rotary_ndims, 2) / rotary_ndims)
    freqs = np.outer(positions, inv_freq)
    emb = np.concatenate([freqs, freqs], axis=1)
    rot, keep = x[:, :rotary_ndims], x[:, rotary_ndims:]
    half = rotary_ndims // 2
    rotate_half = np.concatenate([-rot[:, half:], rot[:, :half]], axis=1)
    return np.concatenate([rot * np.cos(emb) + rotate_half * np.sin(emb), keep], axis=1)


def test_rotary_dims_matches_gptj_and_neox_sources():
    rng = np.random.default_rng(11)
    positions = np.array([0.0, 1.0, 9.0, 250.0, 2047.0])
    gptj_head = rng.normal(size=(5, 256))  # GPT-J-6B: 64 of 256 dimensions per head
    np.testing.assert_allclose(
        rope(gptj_head, positions, rotary_dims=64), gptj_from_source(gptj_head, positions, 64), atol=1e-12
    )
    neox_head = rng.normal(size=(5, 96))  # NeoX-20B: 24 of 96
    np.testing.assert_allclose(
        rope(neox_head, positions, layout="concatenated", rotary_dims=24),
        neox_from_source(neox_head, positions, 24),
        atol=1e-12,
    )
    phi_head = rng.normal(size=(5, 80))  # Phi-2: int(80 · 0.4) = 32 of 80, half-split
    np.testing.assert_allclose(
        rope(phi_head, positions, layout="concatenated", rotary_dims=32),
        neox_from_source(phi_head, positions, 32),
        atol=1e-12,
    )


@given(
    half=st.integers(1, 32), data=st.data(), p=offsets, base=bases, layout=layouts, seed=st.integers(0, 2**16)
)
def test_rotary_dims_rotates_the_first_dims_and_passes_the_rest(half, data, p, base, layout, seed):
    d = 2 * half
    r = 2 * data.draw(st.integers(1, half))
    x = np.random.default_rng(seed).normal(size=(3, d))
    out = rope(x, np.full(3, p), base=base, layout=layout, rotary_dims=r)
    np.testing.assert_array_equal(out[:, r:], x[:, r:])  # the rest: unchanged, exactly
    np.testing.assert_allclose(
        out[:, :r], rope(x[:, :r], np.full(3, p), base=base, layout=layout), atol=1e-12
    )


@given(
    half=st.integers(2, 32),
    data=st.data(),
    p=offsets,
    q=offsets,
    shift=offsets,
    layout=layouts,
    seed=st.integers(0, 2**16),
)
def test_partial_rotary_scores_depend_on_the_offset_and_the_rest_on_nothing(
    half, data, p, q, shift, layout, seed
):
    d = 2 * half
    r = 2 * data.draw(st.integers(1, half - 1))
    a, b = np.random.default_rng(seed).normal(size=(2, d))
    kw = {"layout": layout, "rotary_dims": r}
    score = rope(a, p, **kw) @ rope(b, q, **kw)
    moved = rope(a, p + shift, **kw) @ rope(b, q + shift, **kw)
    np.testing.assert_allclose(moved, score, atol=1e-9 * (1 + np.abs(a) @ np.abs(b)))
    # the unrotated dimensions add a·b over them, whatever p and q
    rotated_part = rope(a[:r], p, layout=layout) @ rope(b[:r], q, layout=layout)
    np.testing.assert_allclose(score - rotated_part, a[r:] @ b[r:], atol=1e-9 * (1 + np.abs(a) @ np.abs(b)))


def test_rotary_dims_none_is_every_dimension():
    x = np.random.default_rng(6).normal(size=(4, 10))
    for layout in ("interleaved", "concatenated"):
        np.testing.assert_array_equal(
            rope(x, [0, 1, 2, 3], layout=layout, rotary_dims=10), rope(x, [0, 1, 2, 3], layout=layout)
        )


def test_head_dimension_frequencies_differ_from_rotary_frequencies():
    # the bug of partial-rotary implementations: base^(−2i/d_head) instead of base^(−2i/r)
    x = np.random.default_rng(7).normal(size=(2, 96))
    right = rope(x, [0.0, 100.0], layout="concatenated", rotary_dims=24)
    inv_freq = 10000.0 ** (-np.arange(0, 24, 2) / 96)  # the wrong width
    emb = np.concatenate([100.0 * inv_freq] * 2)
    rot = x[1, :24]
    wrong = rot * np.cos(emb) + np.concatenate([-rot[12:], rot[:12]]) * np.sin(emb)
    np.testing.assert_allclose(right[0], x[0])  # position 0: no rotation either way
    assert np.abs(wrong - right[1, :24]).max() > 0.1


def test_rope_passes_seq_len_to_the_dynamic_rule():
    rule = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 64}
    x = np.random.default_rng(8).normal(size=(3, 8))
    # n = 256 = sL: the bracket is s² − s + 1 = 13, the new base 10000·13^(8/6)
    np.testing.assert_allclose(
        rope(x, [1, 50, 255], scaling=rule, seq_len=256),
        rope(x, [1, 50, 255], base=10000.0 * 13 ** (8 / 6)),
        atol=1e-12,
    )
    np.testing.assert_array_equal(rope(x, [1, 50, 63], scaling=rule, seq_len=64), rope(x, [1, 50, 63]))
    with pytest.raises(ValueError, match="seq_len is required"):
        rope(x, [1, 2, 3], scaling=rule)


@pytest.mark.parametrize(
    ("rotary_dims", "error"),
    [
        (3, ValueError),
        (0, ValueError),
        (-2, ValueError),
        (10, ValueError),
        (4.0, TypeError),
        (True, TypeError),
        ("4", TypeError),
        (np.float64(4), TypeError),
    ],
)
def test_bad_rotary_dims_are_refused_by_name(rotary_dims, error):
    with pytest.raises(error, match="^rotary_dims must be None or an even integer from 2 to d_model = 8"):
        rope(np.ones((2, 8)), [0, 1], rotary_dims=rotary_dims)


@pytest.mark.parametrize(("rotary_dims", "error"), [(10, ValueError), (3, ValueError), (4.0, TypeError)])
def test_check_rotary_dims_names_the_limit_it_was_given(rotary_dims, error):
    from pe_utils.rope import check_rotary_dims

    with pytest.raises(error, match="^rotary_dims must be None or an even integer from 2 to d_head = 8"):
        check_rotary_dims(rotary_dims, 8, size_name="d_head")
    assert check_rotary_dims(8, 8, size_name="d_head") == 8
