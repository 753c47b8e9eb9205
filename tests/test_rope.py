"""Notebook 07: RoPE rotates rows pair by pair; scores depend on q − p alone."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import bases, d_models, layouts, offsets

import pe_utils as pu
from pe_utils.rope import rope


def rope_by_hand(row, p, base=10000.0):
    """Rotate pair (2i, 2i+1) of one row by θ = p·base^(−2i/d): [c s; −s c]."""
    d = len(row)
    out = []
    for i in range(d // 2):
        theta = p * base ** (-2 * i / d)
        c, s = math.cos(theta), math.sin(theta)
        out += [c * row[2 * i] + s * row[2 * i + 1], -s * row[2 * i] + c * row[2 * i + 1]]
    return np.array(out)


def test_quarter_turn_d2():
    # d = 2: ω_0 = 1; T_{π/2} [1, 0] = [cos, −sin](π/2) = [0, −1].
    np.testing.assert_allclose(rope([[1.0, 0.0]], [math.pi / 2]), [[0.0, -1.0]], atol=1e-15)


def test_position_zero_is_identity():
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(rope(x, [0, 0, 0]), x)


def test_rows_match_hand_rotation():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(5, 8))
    positions = np.array([0.0, 1.0, 7.0, 100.0, -3.5])
    expected = np.array([rope_by_hand(row, p, base=100.0) for row, p in zip(x, positions, strict=True)])
    np.testing.assert_allclose(rope(x, positions, base=100.0), expected, atol=1e-13)


def test_pe_row_is_rotated_to_a_later_row():
    # T_k PE(p) = PE(p + k): rotating the table by k moves it down k rows.
    table = pu.sinusoidal_pe(20, 8)
    np.testing.assert_allclose(rope(table[:15], np.full(15, 5)), table[5:], atol=1e-12)


def test_batched_heads_share_positions():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(3, 4, 6))
    positions = np.array([0, 2, 5, 9])
    out = rope(x, positions)
    for head in range(3):
        np.testing.assert_allclose(out[head], rope(x[head], positions), atol=1e-15)


@given(d=d_models, p=offsets, base=bases, layout=layouts, seed=st.integers(0, 2**16))
def test_rope_is_shift_matrix_application(d, p, base, layout, seed):
    x = np.random.default_rng(seed).normal(size=(3, d))
    T = pu.shift_matrix(p, d, base=base, layout=layout)
    np.testing.assert_allclose(rope(x, np.full(3, p), base=base, layout=layout), x @ T.T, atol=1e-11)


@given(d=d_models, p=offsets, q=offsets, base=bases, layout=layouts, seed=st.integers(0, 2**16))
def test_score_depends_on_offset_only(d, p, q, base, layout, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=(2, d))
    score = rope(a, p, base=base, layout=layout) @ rope(b, q, base=base, layout=layout)
    # (T_p a)·(T_q b) = a·T_{q−p} b
    relative = a @ (pu.shift_matrix(q - p, d, base=base, layout=layout) @ b)
    np.testing.assert_allclose(score, relative, atol=1e-9 * (1 + abs(relative)))


@given(d=d_models, p=offsets, seed=st.integers(0, 2**16))
def test_rotation_keeps_the_norm(d, p, seed):
    x = np.random.default_rng(seed).normal(size=d)
    np.testing.assert_allclose(np.linalg.norm(rope(x, p)), np.linalg.norm(x), rtol=1e-12)


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
