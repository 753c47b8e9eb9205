"""Notebook 08: RoPE rotates pairs counter-clockwise, as the libraries do; scores depend on q − p."""

import cmath
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import bases, d_models, layouts, offsets

import pe_utils as pu
from pe_utils.rope import rope


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
