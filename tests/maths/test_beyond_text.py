"""pe_utils.beyond_text (notebook 12): timesteps, grids, Fourier features, RoPE on several axes, the
Rosetta stone.

Reference values come from transcriptions of each source written here (loops and NumPy, not the
code under test), from a third party (diffusers' own hard-coded test values), or from
mathematics (exact endpoints, identities).
"""

import dataclasses
import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pe_utils as pu
from pe_utils import beyond_text as bt
from tests.strategies import bases, layouts

ATOL = 1e-9

# ---------------------------------------------------------------------------------------------
# Transcriptions of the sources (written from their descriptions, entry by entry)


def ddpm_loop(timesteps, dim):
    """hojonathanho/diffusion get_timestep_embedding: ω_k = 10000^(−k/(h−1)), [sin | cos], zero pad."""
    half = dim // 2
    out = np.zeros((len(timesteps), dim))
    for row, t in enumerate(timesteps):
        for k in range(half):
            omega = math.exp(-k * math.log(10000) / (half - 1))
            out[row, k] = math.sin(t * omega)
            out[row, half + k] = math.cos(t * omega)
    return out


def guided_loop(timesteps, dim, max_period=10000.0):
    """openai/guided-diffusion timestep_embedding: ω_k = P^(−k/h), [cos | sin], zero pad."""
    half = dim // 2
    out = np.zeros((len(timesteps), dim))
    for row, t in enumerate(timesteps):
        for k in range(half):
            omega = math.exp(-math.log(max_period) * k / half)
            out[row, k] = math.cos(t * omega)
            out[row, half + k] = math.sin(t * omega)
    return out


def one_axis_halves(positions, n_freq, denominator, base=10000.0):
    """[sin(p ω_k) … | cos(p ω_k) …] with ω_k = base^(−k/denominator), a loop."""
    out = np.zeros((len(positions), 2 * n_freq))
    for row, p in enumerate(positions):
        for k in range(n_freq):
            angle = p * base ** (-k / denominator)
            out[row, k], out[row, n_freq + k] = math.sin(angle), math.cos(angle)
    return out


def grid_loop(height, width, d_model, convention, base=10000.0):
    """Row r = y·width + x; block order and denominator per source (MAE, big_vision, timm, MoCo v3)."""
    m = d_model // 4
    denominator = m - 1 if convention == "big_vision" else m
    rows = []
    for y in range(height):
        for x in range(width):
            bx = one_axis_halves([x], m, denominator, base)[0]
            by = one_axis_halves([y], m, denominator, base)[0]
            if convention in ("mae", "big_vision"):
                rows.append(np.concatenate([bx, by]))
            elif convention == "mocov3":
                rows.append(np.concatenate([by, bx]))
            else:  # timm default: [sin y | sin x | cos y | cos x]
                rows.append(np.concatenate([by[:m], bx[:m], by[m:], bx[m:]]))
    return np.array(rows).reshape(height * width, d_model)


def diffusers_2d_loop(embed_dim, height, width, base_size=16, interpolation_scale=1.0):
    """huggingface/diffusers embeddings.py get_2d_sincos_pos_embed: MAE's order, positions rescaled."""
    m = embed_dim // 4
    omega = 1.0 / 10000 ** (np.arange(m) / m)
    rows = []
    for y in range(height):
        for x in range(width):
            px = x / (width / base_size) / interpolation_scale  # grid_w
            py = y / (height / base_size) / interpolation_scale  # grid_h
            rows.append(
                np.concatenate(
                    [np.sin(px * omega), np.cos(px * omega), np.sin(py * omega), np.cos(py * omega)]
                )
            )
    return np.array(rows)


def nerf_loop(points, multires, pi=False):
    """bmild/nerf Embedder: input, then for each octave 2^k: sin of every coordinate, cos of every one."""
    scale = math.pi if pi else 1.0
    rows = []
    for point in points:
        row = list(point)
        for k in range(multires):
            for fn in (math.sin, math.cos):
                row += [fn(scale * 2.0**k * c) for c in point]
        rows.append(row)
    return np.array(rows)


def rotate_pairs(vector, phases, layout):
    """Counter-clockwise rotation of each pair by its phase (complex numbers, as rope-vit writes it)."""
    half = len(vector) // 2
    out = np.empty(len(vector))
    for j in range(half):
        a, b = (2 * j, 2 * j + 1) if layout == "interleaved" else (j, j + half)
        z = complex(vector[a], vector[b]) * complex(math.cos(phases[j]), math.sin(phases[j]))
        out[a], out[b] = z.real, z.imag
    return out


# ---------------------------------------------------------------------------------------------
# 1. Timesteps


def test_timestep_frequencies_endpoints():
    for dim in (4, 9, 64, 320):
        half = dim // 2
        ddpm = bt.timestep_frequencies(dim)
        assert ddpm[0] == 1.0 and ddpm.shape == (half,)
        np.testing.assert_allclose(ddpm[-1], 1e-4, rtol=1e-13)  # endpoint-inclusive: exactly 1/max_period
        guided = bt.timestep_frequencies(dim, downscale_freq_shift=0)
        np.testing.assert_allclose(guided[-1], 1e4 ** (-(half - 1) / half), rtol=1e-13)
        np.testing.assert_allclose(guided[1:] / guided[:-1], 1e4 ** (-1 / half), rtol=1e-12)
    np.testing.assert_allclose(
        bt.timestep_frequencies(8, max_period=100.0, downscale_freq_shift=0),
        [1.0, 100**-0.25, 0.1, 100**-0.75],
        rtol=1e-13,
    )


def test_timestep_embedding_reproduces_ddpm_and_guided_diffusion():
    timesteps = [0.0, 1.0, 2.5, 17.0, 999.0, 0.125]  # fractional timesteps allowed
    for dim in (6, 7, 64, 65):
        np.testing.assert_allclose(
            bt.timestep_embedding(timesteps, dim), ddpm_loop(timesteps, dim), atol=1e-12
        )
        np.testing.assert_allclose(
            bt.timestep_embedding(timesteps, dim, flip_sin_to_cos=True, downscale_freq_shift=0),
            guided_loop(timesteps, dim),
            atol=1e-12,
        )
        np.testing.assert_allclose(
            bt.timestep_embedding(
                timesteps, dim, flip_sin_to_cos=True, downscale_freq_shift=0, max_period=500.0
            ),
            guided_loop(timesteps, dim, 500.0),
            atol=1e-12,
        )


def test_timestep_embedding_matches_diffusers_own_hard_coded_values():
    # huggingface/diffusers tests/models/test_layers_utils.py test_sinoid_embeddings_hardcoded:
    # t[23:26, 47:50] for dim 64 and t = 0 … 127, printed to 4 decimals (float32 there).
    t = np.arange(128)
    cases = [
        (
            {"downscale_freq_shift": 1, "flip_sin_to_cos": False},  # "standard unet, score_vde"
            [0.9646, 0.9804, 0.9892, 0.9615, 0.9787, 0.9882, 0.9582, 0.9769, 0.9872],
        ),
        (
            {"downscale_freq_shift": 0, "flip_sin_to_cos": True},  # "glide, ldm"
            [0.3019, 0.2280, 0.1716, 0.3146, 0.2377, 0.1790, 0.3272, 0.2474, 0.1864],
        ),
        (
            {"scale": 1000},  # "grad-tts"
            [-0.9801, -0.9464, -0.9349, -0.3952, 0.8887, -0.9709, 0.5299, -0.2853, -0.9927],
        ),
    ]
    for flags, expected in cases:
        table = bt.timestep_embedding(t, 64, **flags)
        np.testing.assert_allclose(table[23:26, 47:50].ravel(), expected, atol=5.1e-5)


def test_odd_dim_flip_scale_and_fractional_timesteps():
    t = np.array([0.0, 0.5, 3.0])
    for flip in (False, True):
        table = bt.timestep_embedding(t, 9, flip_sin_to_cos=flip)
        assert table.shape == (3, 9) and np.all(table[:, -1] == 0.0)  # the zero column is last either way
    plain, flipped = bt.timestep_embedding(t, 10), bt.timestep_embedding(t, 10, flip_sin_to_cos=True)
    np.testing.assert_array_equal(flipped, np.concatenate([plain[:, 5:], plain[:, :5]], axis=1))
    # scale multiplies the angle: the same as multiplying the timesteps
    np.testing.assert_allclose(
        bt.timestep_embedding(t, 10, scale=3.0), bt.timestep_embedding(3 * t, 10), atol=1e-12
    )
    assert np.all(bt.timestep_embedding([0.0], 10)[0] == [0] * 5 + [1] * 5)
    np.testing.assert_allclose(
        bt.timestep_embedding([0.5], 4)[0],
        [math.sin(0.5), math.sin(0.5e-4), math.cos(0.5), math.cos(0.5e-4)],
        atol=1e-15,
    )
    assert bt.timestep_embedding([], 6).shape == (0, 6)


@given(
    dim=st.integers(4, 80),
    t=st.lists(st.floats(0, 1e3), min_size=1, max_size=6),
    shift=st.sampled_from([0.0, 0.5, 1.0]),
    flip=st.booleans(),
)
def test_flip_swaps_the_halves_and_every_pair_is_on_the_unit_circle(dim, t, shift, flip):
    table = bt.timestep_embedding(t, dim, flip_sin_to_cos=flip, downscale_freq_shift=shift)
    half = dim // 2
    sines, cosines = (
        (table[:, half : 2 * half], table[:, :half]) if flip else (table[:, :half], table[:, half : 2 * half])
    )
    np.testing.assert_allclose(sines**2 + cosines**2, 1.0, atol=1e-12)
    angles = np.outer(t, bt.timestep_frequencies(dim, downscale_freq_shift=shift))
    np.testing.assert_allclose(sines, np.sin(angles), atol=1e-12)


# ---------------------------------------------------------------------------------------------
# 2. Grids


def test_grid_positions_row_by_row():
    np.testing.assert_array_equal(bt.grid_positions(2, 3), [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]])
    assert bt.grid_positions(0, 4).shape == (0, 2) and bt.grid_positions(3, 0).shape == (0, 2)


@pytest.mark.parametrize("convention", bt.SINCOS_2D_CONVENTIONS)
def test_sincos_2d_equals_each_source(convention):
    shapes = [(4, 4, 16), (3, 3, 8), (14, 14, 64)] + (
        [] if convention == "mocov3" else [(2, 5, 12), (3, 1, 8)]
    )
    for height, width, d_model in shapes:
        np.testing.assert_allclose(
            bt.sincos_2d(height, width, d_model, convention=convention),
            grid_loop(height, width, d_model, convention),
            atol=1e-12,
        )
    np.testing.assert_allclose(
        bt.sincos_2d(3, 3, 8, base=100.0, convention=convention),
        grid_loop(3, 3, 8, convention, base=100.0),
        atol=1e-12,
    )


def mae_numpy(embed_dim, grid_size):
    """facebookresearch/mae util/pos_embed.py, as NumPy (float32 grid, float64 frequencies)."""
    axis = np.arange(grid_size, dtype=np.float32)
    first, second = np.meshgrid(axis, axis)  # NumPy's default 'xy': first[i, j] = j, the column

    def one(dim, pos):
        omega = 1.0 / 10000 ** (np.arange(dim // 2, dtype=np.float64) / (dim / 2.0))
        angles = np.outer(pos.reshape(-1), omega)
        return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)

    return np.concatenate([one(embed_dim // 2, first), one(embed_dim // 2, second)], axis=1)


def test_mae_off_the_square_keeps_integer_positions_where_diffusers_rescales_them():
    # sincos_2d's docstring: diffusers keeps MAE's order but rescales positions by base_size/n;
    # the two agree only at height = width = base_size.
    np.testing.assert_allclose(bt.sincos_2d(16, 16, 32), diffusers_2d_loop(32, 16, 16), atol=1e-12)
    for h, w in [(8, 8), (16, 12), (4, 16)]:
        assert not np.allclose(bt.sincos_2d(h, w, 32), diffusers_2d_loop(32, h, w))
        rescaled = bt.grid_positions(h, w) * [16 / w, 16 / h]  # the same order, other positions
        np.testing.assert_allclose(
            bt.rosetta_encoding("mae", rescaled, 32), diffusers_2d_loop(32, h, w), atol=1e-12
        )


@pytest.mark.parametrize(
    ("h", "w", "base_size", "scale"),
    [(14, 14, 16, 1.0), (5, 7, 5, 1.0), (8, 4, 16, 2.0), (3, 6, 6, 0.5), (1, 1, 16, 1.0)],
)
def test_sincos_2d_with_diffusers_base_size_is_get_2d_sincos_pos_embed(h, w, base_size, scale):
    expected = diffusers_2d_loop(32, h, w, base_size=base_size, interpolation_scale=scale)
    np.testing.assert_allclose(
        bt.sincos_2d(h, w, 32, base_size=base_size, interpolation_scale=scale), expected, atol=1e-12
    )
    np.testing.assert_allclose(
        bt.rosetta_encoding("diffusers_2d", bt.grid_positions(h, w), 32, grid_shape=(h, w)),
        diffusers_2d_loop(32, h, w),
        atol=1e-12,
    )  # ROSETTA's setting: diffusers' defaults


def test_diffusers_scaled_positions_against_mae():
    # base_size = height = width: MAE's table; base_size 16 on 14 × 14: up to 1.57 apart
    np.testing.assert_allclose(bt.sincos_2d(14, 14, 768, base_size=14), bt.sincos_2d(14, 14, 768), atol=1e-12)
    gap = np.abs(bt.sincos_2d(14, 14, 768, base_size=16) - bt.sincos_2d(14, 14, 768)).max()
    assert 1.5 < gap < 1.6
    # a 5 × 7 grid with base_size 5: the row keeps integer positions, the column is scaled by 5/7
    scaled = bt.sincos_2d(5, 7, 32, base_size=5)
    mae = bt.sincos_2d(5, 7, 32)
    np.testing.assert_allclose(scaled[:, 16:], mae[:, 16:], atol=1e-12)  # y block
    x = bt.grid_positions(5, 7)[:, 0]
    np.testing.assert_allclose(scaled[:, 0], np.sin(x * 5 / 7), atol=1e-12)
    assert np.abs(scaled - mae).max() > 1
    # interpolation_scale alone divides the integer positions
    np.testing.assert_allclose(
        bt.sincos_2d(4, 4, 16, interpolation_scale=2.0),
        bt.rosetta_encoding("mae", bt.grid_positions(4, 4) / 2, 16),
        atol=1e-12,
    )
    # every convention takes the options (the scale follows each axis, whatever its block)
    np.testing.assert_allclose(
        bt.sincos_2d(3, 5, 16, convention="timm", base_size=6),
        bt.rosetta_encoding("timm", bt.grid_positions(3, 5) * [6 / 5, 6 / 3], 16),
        atol=1e-12,
    )


@given(
    n=st.integers(1, 5),
    n_axes=st.integers(1, 3),
    m=st.integers(1, 4),
    nesting=st.sampled_from(bt.NESTINGS),
    seed=st.integers(0, 1000),
)
def test_a_per_axis_angle_scale_scales_each_column_of_positions(n, n_axes, m, nesting, seed):
    rng = np.random.default_rng(seed)
    positions = rng.uniform(-5, 5, size=(n, n_axes))
    scales = rng.uniform(-3, 3, size=n_axes)
    omega = rng.uniform(0.01, 2, size=m)
    np.testing.assert_allclose(
        bt.sinusoid_table(positions, omega, angle_scale=list(scales), nesting=nesting),
        bt.sinusoid_table(positions * scales, omega, nesting=nesting),
        atol=1e-12,
    )
    # one number is the same factor on every axis
    np.testing.assert_allclose(
        bt.sinusoid_table(positions, omega, angle_scale=scales[0], nesting=nesting),
        bt.sinusoid_table(positions, omega, angle_scale=[scales[0]] * n_axes, nesting=nesting),
        atol=0,
    )


def test_mae_first_half_named_emb_h_encodes_the_column():
    table = bt.sincos_2d(6, 6, 32)
    np.testing.assert_allclose(table, mae_numpy(32, 6), atol=1e-12)
    x, y = bt.grid_positions(6, 6).T
    first = table[:, :16].reshape(6, 6, 16)  # [row y, column x, channel]
    assert np.all(first == first[:1])  # the same on every row: only the column matters
    second = table[:, 16:].reshape(6, 6, 16)
    assert np.all(second == second[:, :1])  # the same along each row: only the row matters
    np.testing.assert_allclose(table[:, 0], np.sin(x), atol=1e-15)


def test_big_vision_last_frequency_is_exactly_one_over_base_and_timm_interleaved_is_mocov3():
    table = bt.sincos_2d(1, 3, 16, convention="big_vision")  # x = 0, 1, 2 on the one row
    np.testing.assert_allclose(table[1, 3], math.sin(1e-4), rtol=1e-12)  # x = 1, last sine of x
    mae, timm, moco = (bt.sincos_2d(5, 5, 24, convention=c) for c in ("mae", "timm", "mocov3"))
    # MoCo v3 (and timm with interleave_sin_cos=True) is MAE with its two halves swapped.
    np.testing.assert_array_equal(moco, np.concatenate([mae[:, 12:], mae[:, :12]], axis=1))
    m = 6  # timm: [sin y | sin x | cos y | cos x]
    np.testing.assert_array_equal(
        timm,
        np.concatenate([moco[:, :m], moco[:, 2 * m : 3 * m], moco[:, m : 2 * m], moco[:, 3 * m :]], axis=1),
    )


def block_diagonal(*blocks):
    size = sum(block.shape[0] for block in blocks)
    out, start = np.zeros((size, size)), 0
    for block in blocks:
        out[start : start + block.shape[0], start : start + block.shape[0]] = block
        start += block.shape[0]
    return out


grid_sizes = st.integers(1, 4)
d_fours = st.integers(2, 8).map(lambda q: 4 * q)
conventions = st.sampled_from(bt.SINCOS_2D_CONVENTIONS)
shifts = st.floats(-50, 50, allow_nan=False)


@given(h=grid_sizes, w=grid_sizes, d=d_fours, base=bases, kx=shifts, ky=shifts, convention=conventions)
def test_a_2d_shift_is_a_block_diagonal_rotation(h, w, d, base, kx, ky, convention):
    if convention == "mocov3":
        w = h
    T = bt.grid_shift_matrix(kx, ky, d, base=base, convention=convention)
    np.testing.assert_allclose(T.T @ T, np.eye(d), atol=1e-12)
    positions = bt.grid_positions(h, w)
    table = bt.sincos_2d(h, w, d, base=base, convention=convention)
    # rebuilt entry by entry at the shifted positions (x + k_x, y + k_y)
    moved = np.array([grid_loop_row(x + kx, y + ky, d, convention, base) for x, y in positions])
    np.testing.assert_allclose(table @ T.T, moved, atol=ATOL)
    if convention in (
        "mae",
        "big_vision",
    ):  # x block first: T is block-diagonal, the x block moves by k_x only
        assert np.all(T[: d // 2, d // 2 :] == 0) and np.all(T[d // 2 :, : d // 2] == 0)
        np.testing.assert_allclose(
            T[: d // 2, : d // 2],
            bt.grid_shift_matrix(kx, 0.0, d, base=base, convention=convention)[: d // 2, : d // 2],
            atol=1e-15,
        )
    if convention == "mae":  # notebook 04's T_k on each half (concatenated layout, d/2 channels)
        expected = block_diagonal(
            pu.shift_matrix(kx, d // 2, base=base, layout="concatenated"),
            pu.shift_matrix(ky, d // 2, base=base, layout="concatenated"),
        )
        np.testing.assert_allclose(T, expected, atol=1e-12)


def grid_loop_row(x, y, d_model, convention, base):
    """One row of grid_loop at real coordinates (x, y)."""
    m = d_model // 4
    denominator = m - 1 if convention == "big_vision" else m
    bx, by = one_axis_halves([x], m, denominator, base)[0], one_axis_halves([y], m, denominator, base)[0]
    if convention in ("mae", "big_vision"):
        return np.concatenate([bx, by])
    if convention == "mocov3":
        return np.concatenate([by, bx])
    return np.concatenate([by[:m], bx[:m], by[m:], bx[m:]])


@given(h=grid_sizes, w=grid_sizes, d=d_fours, base=bases, convention=conventions)
def test_the_2d_dot_product_is_a_sum_of_two_profiles(h, w, d, base, convention):
    if convention == "mocov3":
        w = h
    table = bt.sincos_2d(h, w, d, base=base, convention=convention)
    x, y = bt.grid_positions(h, w).T
    dx, dy = x[None, :] - x[:, None], y[None, :] - y[:, None]
    if convention == "big_vision":
        omega = base ** (-np.arange(d // 4) / (d // 4 - 1))

        def profile(k):
            return np.cos(np.multiply.outer(k, omega)).sum(axis=-1)
    else:

        def profile(k):
            return pu.similarity_profile(k, d // 2, base=base)  # notebook 05's f with d/2 channels

    np.testing.assert_allclose(table @ table.T, profile(dx) + profile(dy), atol=ATOL)


# ---------------------------------------------------------------------------------------------
# 3. Fourier features


def test_nerf_encoding_equals_the_embedder_and_its_sizes():
    points = np.array([[0.1, -0.7, 1.3], [1.0, 0.0, -1.0]])
    for multires in (1, 4, 10):
        np.testing.assert_allclose(
            bt.nerf_encoding(points, multires), nerf_loop(points, multires), atol=1e-12
        )
        np.testing.assert_allclose(
            bt.nerf_encoding(points, multires, pi=True), nerf_loop(points, multires, True), atol=1e-12
        )
    assert bt.nerf_encoding(points, 10).shape == (2, 63) and bt.nerf_encoding(points, 4).shape == (2, 27)
    assert bt.nerf_encoding(points, 10, include_input=False).shape == (2, 60)
    np.testing.assert_array_equal(bt.nerf_encoding(points, 3)[:, :3], points)
    assert bt.nerf_encoding(np.zeros((4, 5, 2)), 2).shape == (4, 5, 10)


def test_with_pi_the_octaves_cannot_tell_minus_one_from_one():
    with_pi = bt.nerf_encoding(np.array([[-1.0], [1.0]]), 10, include_input=False, pi=True)
    np.testing.assert_allclose(with_pi[0], with_pi[1], atol=1e-12)
    without_pi = bt.nerf_encoding(np.array([[-1.0], [1.0]]), 10, include_input=False)
    assert np.abs(without_pi[0] - without_pi[1]).max() > 1.0


def test_fourier_features_and_the_gaussian_matrix():
    x = np.array([[0.25], [0.5]])
    B = np.array([[1.0], [2.0]])
    # 2π·0.25·[1, 2] = [π/2, π]; 2π·0.5·[1, 2] = [π, 2π]
    np.testing.assert_allclose(bt.fourier_features(x, B), [[1, 0, 0, -1], [0, 0, -1, 1]], atol=1e-15)
    G = np.random.default_rng(5).standard_normal((7, 2))
    np.testing.assert_array_equal(bt.gaussian_fourier_matrix(7, 2, 3.0, rng=5), 3.0 * G)
    np.testing.assert_array_equal(
        bt.gaussian_fourier_matrix(7, 2, 3.0, rng=np.random.default_rng(5)), 3.0 * G
    )
    big = bt.gaussian_fourier_matrix(20000, 1, 10.0, rng=0)
    assert abs(big.std() - 10.0) < 0.2 and abs(big.mean()) < 0.2


@pytest.mark.parametrize(("n", "m"), [(30, 5), (5, 30), (8, 8)])
def test_ridge_predict_equals_augmented_least_squares(n, m):
    rng = np.random.default_rng(n * 100 + m)
    train, targets, test = rng.normal(size=(n, m)), rng.normal(size=n), rng.normal(size=(4, m))
    ridge = 0.3
    stacked = np.vstack([train, math.sqrt(ridge) * np.eye(m)])
    weights = np.linalg.lstsq(stacked, np.concatenate([targets, np.zeros(m)]), rcond=None)[0]
    np.testing.assert_allclose(
        bt.ridge_predict(train, targets, test, ridge=ridge), test @ weights, atol=1e-10
    )


# ---------------------------------------------------------------------------------------------
# 4. RoPE on several axes


def test_rope_nd_with_one_axis_is_rope():
    rng = np.random.default_rng(0)
    x, p = rng.normal(size=(6, 16)), rng.uniform(-50, 50, 6)
    for layout in ("interleaved", "concatenated"):
        F = pu.frequencies(16, 500.0)[None, :]
        np.testing.assert_allclose(
            bt.rope_nd(x, p[:, None], F, layout=layout), pu.rope(x, p, base=500.0, layout=layout), atol=1e-12
        )


def test_axial_rope_equals_rope_vit():
    # rope-vit compute_axial_cis: freqs = θ^(−k/m) on x for the first m pairs, on y for the next m;
    # apply_rotary_emb multiplies complex pairs (2j, 2j+1) by e^{iφ}.
    head_dim, theta, width, height = 16, 100.0, 3, 2
    m = head_dim // 4
    rng = np.random.default_rng(1)
    x = rng.normal(size=(width * height, head_dim))
    expected = []
    for token in range(width * height):
        tx, ty = token % width, token // width
        phases = [tx * theta ** (-k / m) for k in range(m)] + [ty * theta ** (-k / m) for k in range(m)]
        expected.append(rotate_pairs(x[token], phases, "interleaved"))
    F = bt.axial_rope_frequencies(head_dim, base=theta)
    np.testing.assert_allclose(bt.rope_nd(x, bt.grid_positions(height, width), F), expected, atol=1e-12)


def test_mixed_rope_frequencies_structure():
    F = bt.mixed_rope_frequencies(16, 5, base=10.0, rng=3)
    assert F.shape == (5, 2, 8)
    magnitude = 10.0 ** (-np.arange(4) / 4)
    lengths = np.hypot(F[:, 0], F[:, 1])
    np.testing.assert_allclose(lengths, np.tile(np.concatenate([magnitude, magnitude]), (5, 1)), rtol=1e-12)
    # the second half turns the first by +90°: (cos α, sin α) → (−sin α, cos α)
    np.testing.assert_allclose(F[:, 0, 4:], -F[:, 1, :4], atol=1e-15)
    np.testing.assert_allclose(F[:, 1, 4:], F[:, 0, :4], atol=1e-15)
    np.testing.assert_array_equal(
        bt.mixed_rope_frequencies(16, 5, rng=3), bt.mixed_rope_frequencies(16, 5, rng=3)
    )


def test_mrope_frequencies_and_qwen2_vl():
    head_dim, section, base = 16, [2, 3, 3], 1e6
    F = bt.mrope_frequencies(head_dim, section, base=base)
    omega = base ** (-np.arange(0, head_dim, 2) / head_dim)
    axis = [0, 0, 1, 1, 1, 2, 2, 2]
    for j in range(8):
        assert F[axis[j], j] == omega[j] and np.count_nonzero(F[:, j]) == 1
    # Qwen2-VL: emb = cat(freqs, freqs); chunks of mrope_section * 2 take rows i % 3;
    # q·cos + rotate_half(q)·sin
    rng = np.random.default_rng(2)
    q = rng.normal(size=(5, head_dim))
    pos = rng.integers(0, 40, size=(5, 3)).astype(float)
    expected = []
    for row in range(5):
        angles = np.concatenate([pos[row, 0] * omega, pos[row, 1] * omega, pos[row, 2] * omega])
        per_axis = np.stack([np.concatenate([pos[row, a] * omega] * 2) for a in range(3)])
        chunks, start = [], 0
        for i, size in enumerate(section * 2):
            chunks.append(per_axis[i % 3, start : start + size])
            start += size
        theta = np.concatenate(chunks)
        assert angles.size == 24
        half = head_dim // 2
        rotated_half = np.concatenate([-q[row, half:], q[row, :half]])
        expected.append(q[row] * np.cos(theta) + rotated_half * np.sin(theta))
    np.testing.assert_allclose(bt.rope_nd(q, pos, F, layout="concatenated"), expected, atol=1e-12)


@given(
    d=st.integers(1, 16).map(lambda q: 4 * q),
    base=bases,
    t=st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=5),
    split=st.lists(st.integers(0, 10), min_size=2, max_size=2),
)
def test_mrope_with_equal_axes_is_1d_rope(d, base, t, split):
    half = d // 2
    a = min(split[0], half)
    b = min(split[1], half - a)
    F = bt.mrope_frequencies(d, [a, b, half - a - b], base=base)
    x = np.random.default_rng(len(t)).normal(size=(len(t), d))
    positions = np.repeat(np.array(t)[:, None], 3, axis=1)
    np.testing.assert_allclose(
        bt.rope_nd(x, positions, F, layout="concatenated"),
        pu.rope(x, t, base=base, layout="concatenated"),
        atol=ATOL,
    )


@given(
    seed=st.integers(0, 2**16),
    n_axes=st.integers(1, 3),
    d=st.integers(1, 12).map(lambda q: 2 * q),
    layout=layouts,
    kind=st.sampled_from(["random", "axial", "mixed", "mrope"]),
)
def test_scores_depend_on_the_offset_vector_alone(seed, n_axes, d, layout, kind):
    rng = np.random.default_rng(seed)
    if kind == "axial" and d % 4 == 0:
        F, n_axes = bt.axial_rope_frequencies(d), 2
    elif kind == "mixed" and d % 4 == 0:
        F, n_axes = bt.mixed_rope_frequencies(d, 1, rng=rng)[0], 2
    elif kind == "mrope":
        half = d // 2
        F, n_axes = bt.mrope_frequencies(d, [half // 3, half // 3, half - 2 * (half // 3)]), 3
    else:
        F = rng.normal(size=(n_axes, d // 2))
    a, b = rng.normal(size=d), rng.normal(size=d)
    p, q, c = (rng.uniform(-100, 100, n_axes) for _ in range(3))
    score = bt.rope_nd(a, p, F, layout=layout) @ bt.rope_nd(b, q, F, layout=layout)
    moved = bt.rope_nd(a, p + c, F, layout=layout) @ bt.rope_nd(b, q + c, F, layout=layout)
    at_zero = a @ bt.rope_nd(b, q - p, F, layout=layout)
    np.testing.assert_allclose([score, moved], [at_zero, at_zero], atol=1e-8)


def qwen3_vl_loop(q, position_ids, mrope_section, base=1e6):
    """transformers 5.24.0 qwen3_vl recomposition_frequencies, then rotate_half; one row at a time.

    Start from the time angles; overwrite pairs slice(1, 3·s_h, 3) with the height angles and
    slice(2, 3·s_w, 3) with the width angles; cat(angles, angles); q·cos + rotate_half(q)·sin.
    """
    head_dim = q.shape[-1]
    half = head_dim // 2
    omega = [base ** (-2 * j / head_dim) for j in range(half)]
    out = []
    for row in range(q.shape[0]):
        t, h, w = position_ids[row]
        angles = [t * omega[j] for j in range(half)]
        for j in range(1, 3 * mrope_section[1], 3):
            angles[j] = h * omega[j]
        for j in range(2, 3 * mrope_section[2], 3):
            angles[j] = w * omega[j]
        theta = np.array(angles + angles)
        rotated_half = np.concatenate([-q[row, half:], q[row, :half]])
        out.append(q[row] * np.cos(theta) + rotated_half * np.sin(theta))
    return np.array(out)


@pytest.mark.parametrize(
    ("head_dim", "section"),
    [(128, [24, 20, 20]), (64, [11, 11, 10]), (8, [2, 1, 1]), (16, [8, 0, 0]), (12, [2, 2, 2])],
)
def test_interleaved_mrope_is_qwen3_vls_recomposition(head_dim, section):
    rng = np.random.default_rng(head_dim)
    q = rng.normal(size=(6, head_dim))
    pos = rng.integers(0, 50, size=(6, 3)).astype(float)
    F = bt.mrope_frequencies(head_dim, section, interleaved=True)
    np.testing.assert_allclose(
        bt.rope_nd(q, pos, F, layout="concatenated"), qwen3_vl_loop(q, pos, section), atol=1e-12
    )
    axis = F.argmax(axis=0)
    assert list(np.bincount(axis, minlength=3)) == section  # each axis gets its count of pairs
    assert np.count_nonzero(F) == head_dim // 2  # one axis per pair


def test_interleaved_mrope_layout_of_qwen3_vl():
    axis = bt.mrope_frequencies(128, [24, 20, 20], interleaved=True).argmax(axis=0)
    assert list(axis[:6]) == [0, 1, 2, 0, 1, 2] and list(axis[57:]) == [0, 1, 2, 0, 0, 0, 0]
    bands = bt.mrope_frequencies(128, [24, 20, 20]).argmax(axis=0)
    assert list(bands) == [0] * 24 + [1] * 20 + [2] * 20
    # the fastest width pair: pair 2 interleaved, pair 44 in bands
    F_i = bt.mrope_frequencies(128, [24, 20, 20], interleaved=True)
    F_b = bt.mrope_frequencies(128, [24, 20, 20])
    assert F_i[2].max() == 1e6 ** (-4 / 128) and F_b[2].max() == 1e6 ** (-88 / 128)


@given(
    d=st.integers(1, 16).map(lambda q: 4 * q),
    base=bases,
    t=st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=5),
    split=st.lists(st.integers(0, 10), min_size=2, max_size=2),
)
def test_interleaved_mrope_with_equal_axes_is_1d_rope(d, base, t, split):
    half = d // 2
    h = min(split[0], (half + 1) // 3)
    w = min(split[1], half // 3)
    F = bt.mrope_frequencies(d, [half - h - w, h, w], base=base, interleaved=True)
    x = np.random.default_rng(len(t)).normal(size=(len(t), d))
    positions = np.repeat(np.array(t)[:, None], 3, axis=1)
    np.testing.assert_allclose(
        bt.rope_nd(x, positions, F, layout="concatenated"),
        pu.rope(x, t, base=base, layout="concatenated"),
        atol=ATOL,
    )


def test_rope_nd_broadcasts_per_head_frequencies():
    rng = np.random.default_rng(4)
    F = bt.mixed_rope_frequencies(8, 3, rng=rng)  # (heads, 2, 4)
    x = rng.normal(size=(3, 5, 8))
    pos = bt.grid_positions(1, 5)
    out = bt.rope_nd(x, pos, F[:, None])
    for head in range(3):
        np.testing.assert_allclose(out[head], bt.rope_nd(x[head], pos, F[head]), atol=1e-14)


# ---------------------------------------------------------------------------------------------
# 5. The Rosetta stone


def test_rosetta_names_each_convention_and_reproduces_it():
    t = np.array([0.0, 1.0, 7.5, 300.0])
    np.testing.assert_allclose(bt.rosetta_encoding("ddpm", t, 33), ddpm_loop(t, 33), atol=1e-12)
    np.testing.assert_allclose(bt.rosetta_encoding("guided_diffusion", t, 33), guided_loop(t, 33), atol=1e-12)
    # Stable Diffusion calls guided-diffusion's function (CompVis ldm, Stability AI sgm)
    np.testing.assert_allclose(bt.rosetta_encoding("stable_diffusion", t, 33), guided_loop(t, 33), atol=1e-12)
    for name in ("vaswani2017", "tensor2tensor", "marian"):
        np.testing.assert_allclose(
            bt.rosetta_encoding(name, np.arange(9.0), 12), pu.convention_table(name, 9, 12), atol=1e-12
        )
    # fairseq is tensor2tensor's table read from position 2 (notebook 07)
    np.testing.assert_allclose(
        bt.rosetta_encoding("tensor2tensor", np.arange(2.0, 11.0), 12),
        pu.convention_table("fairseq", 9, 12),
        atol=1e-12,
    )
    for name in bt.SINCOS_2D_CONVENTIONS:
        np.testing.assert_allclose(
            bt.rosetta_encoding(name, bt.grid_positions(4, 4), 16), grid_loop(4, 4, 16, name), atol=1e-12
        )
    points = np.array([[0.3, -0.2, 0.9]])
    np.testing.assert_allclose(bt.rosetta_encoding("nerf", points, 63), nerf_loop(points, 10), atol=1e-12)
    # the paper's equation 4: γ(p) for each coordinate in turn, π inside, no input
    paper = [f(math.pi * 2.0**k * c) for c in points[0] for k in range(10) for f in (math.sin, math.cos)]
    np.testing.assert_allclose(bt.rosetta_encoding("nerf_paper", points, 60)[0], paper, atol=1e-12)
    for name, setting in bt.ROSETTA.items():
        assert isinstance(setting, bt.Convention) and setting.call and setting.source, name
        # its nesting is a list of names that sinusoid_table takes as it is
        positions = np.arange(6.0 * len(setting.axes)).reshape(6, -1) / 7
        table = bt.sinusoid_table(positions, [1.0, 0.1], nesting=setting.nesting)
        assert table.shape == (6, 2 * 2 * len(setting.axes))


@given(
    n=st.integers(1, 6),
    d=st.integers(2, 40),
    flip=st.booleans(),
    shift=st.sampled_from([0.0, 1.0]),
    scale=st.floats(0.1, 10.0),
    base=bases,
)
def test_sinusoid_table_reproduces_timestep_embedding(n, d, flip, shift, scale, base):
    if d // 2 - shift == 0:
        return
    t = np.linspace(0.0, 50.0, n)
    expected = bt.timestep_embedding(
        t, d, flip_sin_to_cos=flip, downscale_freq_shift=shift, scale=scale, max_period=base
    )
    half = d // 2
    omega = base ** (-np.arange(half) / (half - shift))
    angles = scale * np.outer(t, omega)
    halves = [np.cos(angles), np.sin(angles)] if flip else [np.sin(angles), np.cos(angles)]
    np.testing.assert_allclose(expected, np.concatenate(halves + [np.zeros((n, d % 2))], axis=1), atol=ATOL)
    table = bt.sinusoid_table(
        t, omega, angle_scale=scale, first="cos" if flip else "sin", nesting=("trig", "frequency"), pad=d % 2
    )
    np.testing.assert_allclose(table, expected, atol=ATOL)


@given(
    n_axes=st.integers(1, 3),
    m=st.integers(1, 5),
    nesting=st.sampled_from(bt.NESTINGS),
    first=st.sampled_from(["sin", "cos"]),
    seed=st.integers(0, 1000),
)
def test_every_nesting_puts_each_sine_and_cosine_where_it_says(n_axes, m, nesting, first, seed):
    positions = np.random.default_rng(seed).uniform(-5, 5, size=(3, n_axes))
    omega = np.linspace(0.3, 2.0, m)
    table = bt.sinusoid_table(positions, omega, first=first, nesting=nesting)
    sizes = {"axis": n_axes, "trig": 2, "frequency": m}
    column = 0
    for outer in range(sizes[nesting[0]]):
        for middle in range(sizes[nesting[1]]):
            for inner in range(sizes[nesting[2]]):
                index = dict(zip(nesting, (outer, middle, inner), strict=True))
                trig = index["trig"] if first == "sin" else 1 - index["trig"]
                fn = np.sin if trig == 0 else np.cos
                np.testing.assert_allclose(
                    table[:, column], fn(positions[:, index["axis"]] * omega[index["frequency"]]), atol=1e-14
                )
                column += 1


@given(
    d=st.integers(1, 16).map(lambda q: 2 * q),
    base=bases,
    p=st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=5),
    layout=layouts,
)
def test_one_axis_tables_are_notebook_03s(d, base, p, layout):
    omega = bt.geometric_frequencies(d // 2, base=base)
    np.testing.assert_allclose(omega, pu.frequencies(d, base), rtol=1e-12)
    table = bt.sinusoid_table(
        p, omega, nesting=("frequency", "trig") if layout == "interleaved" else ("trig", "frequency")
    )
    np.testing.assert_allclose(table, pu.encode_positions(p, d, base=base, layout=layout), atol=ATOL)


# ---------------------------------------------------------------------------------------------
# Bad input: every error names the argument, before any work

BAD_CALLS = [
    (lambda: bt.timestep_embedding([0.0, np.nan], 8), ValueError, "timesteps"),
    (lambda: bt.timestep_embedding([np.inf], 8), ValueError, "timesteps"),
    (lambda: bt.timestep_embedding([[0.0, 1.0]], 8), ValueError, "timesteps must be a 1-D"),
    (lambda: bt.timestep_embedding(3.0, 8), ValueError, "timesteps must be a 1-D"),
    (lambda: bt.timestep_embedding(["a"], 8), TypeError, "timesteps"),
    (lambda: bt.timestep_embedding([1.0], 1), ValueError, "dim"),
    (lambda: bt.timestep_embedding([1.0], 8.0), TypeError, "dim"),
    (lambda: bt.timestep_embedding([1.0], True), TypeError, "dim"),
    (lambda: bt.timestep_embedding([1.0], 2), ValueError, "downscale_freq_shift"),  # 0/0 in diffusers
    (lambda: bt.timestep_embedding([1.0], 3), ValueError, "downscale_freq_shift"),
    (lambda: bt.timestep_embedding([1.0], 8, downscale_freq_shift=4), ValueError, "downscale_freq_shift"),
    (
        lambda: bt.timestep_embedding([1.0], 8, downscale_freq_shift=np.nan),
        ValueError,
        "downscale_freq_shift",
    ),
    (lambda: bt.timestep_embedding([1.0], 8, flip_sin_to_cos=1), TypeError, "flip_sin_to_cos"),
    (lambda: bt.timestep_embedding([1.0], 8, scale=np.inf), ValueError, "scale"),
    (lambda: bt.timestep_embedding([1.0], 8, scale="2"), TypeError, "scale"),
    (lambda: bt.timestep_embedding([1.0], 8, max_period=0.0), ValueError, "max_period"),
    (lambda: bt.timestep_embedding([1.0], 8, max_period=-5.0), ValueError, "max_period"),
    (lambda: bt.timestep_embedding(np.zeros(4), 2**40), ValueError, "GiB"),
    (lambda: bt.timestep_frequencies(4, downscale_freq_shift=2), ValueError, "downscale_freq_shift"),
    # M8 of the second read: an (almost) zero or overflowing denominator, an overflowing angle
    (
        lambda: bt.timestep_embedding([1.0], 4, downscale_freq_shift=2.0000000001),
        ValueError,
        r"downscale_freq_shift = 2\.0000000001 .* almost zero",
    ),
    (lambda: bt.timestep_embedding([1.0], 8, downscale_freq_shift=4 - 1e-12), ValueError, "almost zero"),
    (
        lambda: bt.timestep_embedding([1.0], 8, downscale_freq_shift=4.001),
        ValueError,
        "downscale_freq_shift = 4.001 .* overflow",
    ),
    (lambda: bt.timestep_embedding([1e308], 4, scale=10.0), ValueError, "scale · timesteps"),
    (
        lambda: bt.timestep_embedding([1e300], 4, max_period=1e-300, downscale_freq_shift=0),
        ValueError,
        "fastest frequency 1e",
    ),  # max_period < 1: the frequencies grow
    (
        lambda: bt.geometric_frequencies(4, shift=4 + 1e-12),
        ValueError,
        "shift = 4.000000000001 .* almost zero",
    ),
    (lambda: bt.geometric_frequencies(4, shift=4.5, base=1e300), ValueError, "shift = 4.5 .* overflow"),
    (lambda: bt.sinusoid_table([1e308], [10.0]), ValueError, "angle_scale · positions · frequencies"),
    (
        lambda: bt.sinusoid_table([1e308], [10.0], angle_scale=2.0, angle_description="s · t · w"),
        ValueError,
        r"^s · t · w \(largest factors 2 and 1e\+308, fastest frequency 10\) overflows float64",
    ),
    (lambda: bt.nerf_encoding([[1e300, 0.0]], 60, pi=True), ValueError, r"^π · points · octaves up to 2\^59"),
    (lambda: bt.sinusoid_table([10.0], [1.0], angle_scale=1e308), ValueError, "angle_scale"),
    (lambda: bt.rosetta_encoding("nerf", [[1e308, 0.0, 0.0]], 15), ValueError, "positions"),
    (lambda: bt.nerf_encoding([[1e300, 0.0]], 60), ValueError, "points"),
    (lambda: bt.fourier_features([[1e308]], [[10.0]]), ValueError, "x · frequency_matrix"),
    (
        lambda: bt.rope_nd(np.ones((1, 4)), [[1e308]], [[10.0, 10.0]]),
        ValueError,
        "positions · frequency_matrix",
    ),
    (lambda: bt.sincos_2d(4, 4, 6), ValueError, "d_model"),
    (lambda: bt.sincos_2d(4, 4, 0), ValueError, "d_model"),
    (lambda: bt.sincos_2d(4, 4, 8.0), TypeError, "d_model"),
    (lambda: bt.sincos_2d(-1, 4, 8), ValueError, "height"),
    (lambda: bt.sincos_2d(4, 2.5, 8), TypeError, "width"),
    (lambda: bt.sincos_2d(4, 4, 8, convention="vit"), ValueError, "convention"),
    (lambda: bt.sincos_2d(4, 4, 4, convention="big_vision"), ValueError, "d_model must be at least 8"),
    (lambda: bt.sincos_2d(4, 5, 8, convention="mocov3"), ValueError, "square"),
    (lambda: bt.sincos_2d(4, 4, 8, base=1.0), ValueError, "base"),
    (lambda: bt.sincos_2d(10**6, 10**6, 8), ValueError, "GiB"),
    (lambda: bt.grid_shift_matrix(np.nan, 0, 8), ValueError, "shift_x"),
    (lambda: bt.grid_shift_matrix(0, [1, 2], 8), ValueError, "shift_y"),
    (lambda: bt.grid_shift_matrix(0, 0, 10), ValueError, "d_model"),
    (lambda: bt.grid_shift_matrix(0, 0, 8, convention="x"), ValueError, "convention"),
    (lambda: bt.grid_shift_matrix(0, 0, 4 * 10**5), ValueError, "GiB"),
    (lambda: bt.grid_positions(2, -1), ValueError, "width"),
    (lambda: bt.nerf_encoding([[0.0, np.nan]], 4), ValueError, "points"),
    (lambda: bt.nerf_encoding(1.0, 4), ValueError, "points"),
    (lambda: bt.nerf_encoding([[0.0]], 0), ValueError, "n_frequencies"),
    (lambda: bt.nerf_encoding([[0.0]], 61), ValueError, "n_frequencies must be at most 60: .* 128 radians"),
    (lambda: bt.nerf_encoding([[0.0]], 4, pi="yes"), TypeError, "pi"),
    (lambda: bt.nerf_encoding([[0.0]], 4, include_input=None), TypeError, "include_input"),
    (lambda: bt.fourier_features([[0.0, 1.0]], [[1.0]]), ValueError, "x must have a last axis of 1"),
    (lambda: bt.fourier_features([[0.0]], [1.0]), ValueError, "frequency_matrix"),
    (lambda: bt.fourier_features([[np.nan]], [[1.0]]), ValueError, "x"),
    (lambda: bt.gaussian_fourier_matrix(4, 1, 0.0, rng=0), ValueError, "sigma"),
    (lambda: bt.gaussian_fourier_matrix(0, 1, 1.0, rng=0), ValueError, "n_features"),
    (lambda: bt.gaussian_fourier_matrix(4, 1, 1.0, rng="seed"), TypeError, "rng"),
    (lambda: bt.gaussian_fourier_matrix(10**6, 10**6, 1.0, rng=0), ValueError, "GiB"),
    (lambda: bt.ridge_predict(np.ones((3, 2)), np.ones(3), np.ones((1, 2)), ridge=0.0), ValueError, "ridge"),
    (
        lambda: bt.ridge_predict(np.ones((3, 2)), np.ones(4), np.ones((1, 2)), ridge=1.0),
        ValueError,
        "train_targets",
    ),
    (
        lambda: bt.ridge_predict(np.ones((3, 2)), np.ones(3), np.ones((1, 3)), ridge=1.0),
        ValueError,
        "test_features",
    ),
    (
        lambda: bt.ridge_predict(np.ones(3), np.ones(3), np.ones((1, 3)), ridge=1.0),
        ValueError,
        "train_features",
    ),
    (lambda: bt.rope_nd(np.ones((2, 8)), np.ones((2, 2)), np.ones((2, 3))), ValueError, "frequency_matrix"),
    (
        lambda: bt.rope_nd(np.ones((2, 8)), np.ones((2, 3)), np.ones((2, 4))),
        ValueError,
        "positions must have",
    ),
    (lambda: bt.rope_nd(np.ones((2, 8)), np.ones((3, 2)), np.ones((2, 4))), ValueError, "do not match x"),
    (lambda: bt.rope_nd(np.ones((2, 7)), np.ones((2, 2)), np.ones((2, 3))), ValueError, "d_model"),
    (lambda: bt.rope_nd(np.ones((2, 8)), np.full((2, 2), np.nan), np.ones((2, 4))), ValueError, "positions"),
    (lambda: bt.rope_nd(np.ones((2, 8)), np.ones((2, 2)), np.ones((2, 4)), layout="x"), ValueError, "layout"),
    (lambda: bt.axial_rope_frequencies(6), ValueError, "head_dim"),
    (lambda: bt.axial_rope_frequencies(8, base=0.5), ValueError, "base"),
    (lambda: bt.mixed_rope_frequencies(8, 0, rng=0), ValueError, "n_heads"),
    (lambda: bt.mixed_rope_frequencies(8, 2, rng=None), TypeError, "rng"),
    (lambda: bt.mrope_frequencies(16, [2, 3, 2]), ValueError, "mrope_section must sum"),
    (lambda: bt.mrope_frequencies(16, [8]), ValueError, "mrope_section"),
    (lambda: bt.mrope_frequencies(16, "234"), TypeError, "mrope_section"),
    (lambda: bt.mrope_frequencies(16, [2.0, 3, 3]), ValueError, "mrope_section"),
    (lambda: bt.mrope_frequencies(15, [2, 3, 2]), ValueError, "head_dim"),
    (lambda: bt.mrope_frequencies(16, [2, 3, 3], interleaved=1), TypeError, "interleaved"),
    (lambda: bt.mrope_frequencies(16, [0, 4, 4], interleaved=True), ValueError, "cannot be interleaved"),
    (lambda: bt.mrope_frequencies(16, [2, 0, 6], interleaved=True), ValueError, "3·s_w"),
    (lambda: bt.sincos_2d(4, 4, 8, base_size=0), ValueError, "base_size"),
    (lambda: bt.sincos_2d(4, 4, 8, base_size="16"), TypeError, "base_size"),
    (lambda: bt.sincos_2d(4, 4, 8, interpolation_scale=-1.0), ValueError, "interpolation_scale"),
    (
        lambda: bt.sincos_2d(4, 4, 8, base_size=1e308, interpolation_scale=1e-10),
        ValueError,
        "interpolation_scale",
    ),
    (
        lambda: bt.sinusoid_table(np.zeros((2, 2)), [1.0], angle_scale=[1.0]),
        ValueError,
        "one factor per axis",
    ),
    (
        lambda: bt.sinusoid_table(np.zeros((2, 2)), [1.0], angle_scale=[1.0, np.nan]),
        ValueError,
        "angle_scale",
    ),
    (lambda: bt.sinusoid_table([0.0], [1.0], angle_scale="2"), TypeError, "angle_scale"),
    (lambda: bt.sinusoid_table([0.0], [1.0], angle_scale=None), TypeError, "angle_scale"),
    (lambda: bt.rosetta_encoding("diffusers_2d", np.zeros((2, 2)), 8), ValueError, "grid_shape"),
    (
        lambda: bt.rosetta_encoding("diffusers_2d", np.zeros((2, 2)), 8, grid_shape=(2, -1)),
        ValueError,
        "grid_shape",
    ),
    (lambda: bt.rosetta_encoding("mae", np.zeros((2, 2)), 8, grid_shape=(1, 2)), ValueError, "grid_shape"),
    (lambda: bt.geometric_frequencies(1, shift=1.0), ValueError, "shift"),
    (lambda: bt.geometric_frequencies(0), ValueError, "n_frequencies"),
    (lambda: bt.octave_frequencies(61), ValueError, "n_frequencies"),
    # letter codes are not names: refused, and the message names the three names
    (
        lambda: bt.sinusoid_table([0.0], [1.0], nesting="ati"),
        ValueError,
        "the names 'axis', 'trig'",
    ),
    (lambda: bt.sinusoid_table([0.0], [1.0], nesting="ti"), ValueError, "nesting"),
    (lambda: bt.sinusoid_table([0.0], [1.0], nesting=("axis", "trig", "trig")), ValueError, "nesting"),
    (
        lambda: bt.sinusoid_table([0.0], [1.0], nesting=("trig", "axes", "frequency")),
        ValueError,
        "nesting must order the names 'axis', 'trig'",
    ),
    (lambda: bt.sinusoid_table([0.0], [1.0], nesting=("trig",)), ValueError, "nesting"),
    (lambda: bt.sinusoid_table([0.0], [1.0], nesting=("axis", "trig", "k")), ValueError, "nesting"),
    (lambda: bt.sinusoid_table([0.0], [1.0], first="tan"), ValueError, "first"),
    (lambda: bt.sinusoid_table([0.0], [1.0], pad=-1), ValueError, "pad"),
    (lambda: bt.sinusoid_table([0.0], [[1.0]]), ValueError, "frequencies"),
    (lambda: bt.sinusoid_table([0.0], []), ValueError, "frequencies"),
    (lambda: bt.sinusoid_table(np.zeros((2, 2, 2)), [1.0]), ValueError, "positions"),
    (lambda: bt.sinusoid_table([0.0], [1.0], angle_scale=np.nan), ValueError, "angle_scale"),
    (lambda: bt.sinusoid_table(np.zeros(10**6), np.ones(10**4)), ValueError, "GiB"),
    (lambda: bt.rosetta_encoding("bert", [0.0], 8), ValueError, "name"),
    (lambda: bt.rosetta_encoding("mae", [0.0, 1.0], 8), ValueError, "positions must have shape"),
    (lambda: bt.rosetta_encoding("ddpm", np.zeros((2, 2)), 8), ValueError, "positions must be a 1-D"),
    (lambda: bt.rosetta_encoding("mae", np.zeros((2, 2)), 10), ValueError, "d_model"),
    (lambda: bt.rosetta_encoding("nerf", np.zeros((2, 3)), 64), ValueError, "d_model"),
    (lambda: bt.rosetta_encoding("vaswani2017", [0.0], 7), ValueError, "d_model"),
]


@pytest.mark.parametrize(("call", "error", "words"), BAD_CALLS)
def test_bad_input_is_refused_by_name(call, error, words):
    # refused before any work: no overflow or invalid-value warning on the way to the error
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(error, match=words):
            call()


def test_the_diffusers_flags_each_row_names_reproduce_it():
    # ROSETTA's "call" names diffusers' flags for the timestep rows: they give the same table
    t = np.array([0.0, 2.5, 999.0])
    for name in ("ddpm", "stable_diffusion"):
        call = bt.ROSETTA[name].call
        if "defaults" in call:
            flags = {}
        else:
            flags = {
                "flip_sin_to_cos": re.search(r"flip_sin_to_cos=(\w+)", call).group(1) == "True",
                "downscale_freq_shift": float(re.search(r"downscale_freq_shift=(\d)", call).group(1)),
            }
        np.testing.assert_allclose(
            bt.timestep_embedding(t, 17, **flags), bt.rosetta_encoding(name, t, 17), atol=1e-12
        )


def test_a_zero_denominator_is_nan_in_the_first_pair_of_diffusers_formula():
    # diffusers divides −log(P)·i by h − s: at h = s, i = 0 is 0/0 and every other i is −∞.
    for dim, shift in [(2, 1), (3, 1), (8, 4), (9, 4)]:
        half = dim // 2
        with np.errstate(divide="ignore", invalid="ignore"):
            exponent = -math.log(1e4) * np.arange(half) / np.float64(half - shift)
        omega = np.exp(exponent)
        table = np.concatenate([np.sin(5.0 * omega), np.cos(5.0 * omega)])
        assert list(np.flatnonzero(np.isnan(table))) == [0, half]
        with pytest.raises(ValueError, match="NaN in the first pair"):
            bt.timestep_embedding([5.0], dim, downscale_freq_shift=shift)


def test_mrope_defaults_to_qwen2_vls_rope_theta():
    np.testing.assert_array_equal(
        bt.mrope_frequencies(16, [2, 3, 3]), bt.mrope_frequencies(16, [2, 3, 3], base=1e6)
    )
    assert bt.mrope_frequencies(16, [8, 0, 0])[0, 1] == 1e6 ** (-2 / 16)


@given(
    h=grid_sizes,
    w=grid_sizes,
    d=d_fours,
    convention=conventions,
    multires=st.integers(1, 6),
    seed=st.integers(0, 1000),
)
def test_rosetta_reproduces_the_grid_and_nerf_conventions_at_any_size(h, w, d, convention, multires, seed):
    if convention == "mocov3":
        w = h
    np.testing.assert_allclose(
        bt.rosetta_encoding(convention, bt.grid_positions(h, w), d),
        grid_loop(h, w, d, convention),
        atol=1e-12,
    )
    points = np.random.default_rng(seed).uniform(-2, 2, size=(3, 3))
    np.testing.assert_allclose(
        bt.rosetta_encoding("nerf", points, 3 + 6 * multires), nerf_loop(points, multires), atol=1e-12
    )


def _timm(**changed):
    return dataclasses.replace(bt.ROSETTA["timm"], **changed)


@pytest.mark.parametrize(
    ("changed", "words"),
    [
        ({"axes": "yx"}, r"Convention\.axes must be a tuple .*'p', 't', 'x', 'y', 'z'.*got 'yx'"),
        ({"axes": ("y", "w")}, r"Convention\.axes"),
        ({"axes": ("y", "y")}, r"Convention\.axes"),
        ({"nesting": "tai"}, r"Convention\.nesting must be an order of 'axis', 'trig', 'frequency'"),
        ({"nesting": ("trig", "axes", "frequency")}, r"Convention\.nesting"),
        ({"nesting": ("trig", "frequency")}, r"Convention\.nesting"),  # two axes: the axis must be placed
        ({"grid": "octave"}, r"Convention\.grid must be one of 'geometric', 'octaves', got 'octave'"),
        ({"grid": "octaves"}, r"Convention\.base and shift must be None for grid \"octaves\""),
        ({"shift": None}, r"Convention\.base and shift must be floats"),
        ({"first": "cosine"}, r"Convention\.first must be 'sin' or 'cos'"),
        ({"angle_scale": 0.0}, r"Convention\.angle_scale"),
        ({"pad_odd": 1}, r"Convention\.pad_odd must be True or False"),
        ({"base_size": 16.0}, r"Convention\.base_size and interpolation_scale"),
        ({"call": ""}, r"Convention\.call"),
        # ranges, not only names and types (a second reader found these accepted when made)
        ({"base": 1.0}, r"Convention\.base must be a finite float greater than 1, got 1\.0"),
        ({"base": -1.0}, r"Convention\.base must be a finite float greater than 1"),
        ({"base": float("nan")}, r"Convention\.base must be a finite float"),
        ({"shift": float("inf")}, r"Convention\.shift must be a finite float"),
        ({"angle_scale": float("inf")}, r"Convention\.angle_scale must be a finite positive float"),
        ({"base_size": -1.0, "interpolation_scale": 1.0}, r"Convention\.base_size must be a finite positive"),
        ({"base_size": 16, "interpolation_scale": 1.0}, r"Convention\.base_size must be a finite positive"),
        ({"base_size": 16.0, "interpolation_scale": 0.0}, r"Convention\.interpolation_scale must be"),
    ],
)
def test_a_convention_with_a_wrong_name_is_refused_naming_the_field(changed, words):
    with pytest.raises(ValueError, match=words):
        _timm(**changed)


def test_a_one_axis_convention_may_leave_the_axis_out_of_its_nesting():
    assert bt.ROSETTA["ddpm"].nesting == ("trig", "frequency")
    assert dataclasses.replace(bt.ROSETTA["ddpm"], nesting=("axis", "frequency", "trig")).nesting[0] == "axis"
    with pytest.raises(dataclasses.FrozenInstanceError):
        bt.ROSETTA["ddpm"].first = "cos"
