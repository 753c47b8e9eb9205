"""Conventions of huggingface/diffusers and huggingface/pytorch-image-models (timm) beside pe_utils."""

from __future__ import annotations

import itertools

import numpy as np
import torch
from _support import EPS32, EPS64, angle_bound, check, columns, pair_magnitude, to_numpy
from diffusers.models import embeddings as diffusers_embeddings
from libs import timm_sincos

import pe_utils as pe

DIFFUSERS, TIMM = "diffusers", "timm"
RNG_SEED = 20261129


def check_diffusers_timestep() -> None:
    """``get_timestep_embedding`` over flip × shift × scale × max_period × dim, fractional steps."""
    rng = np.random.default_rng(RNG_SEED)
    steps = np.concatenate([[0.0, 1.0, 999.0], rng.uniform(0, 1000, size=13)]).astype(np.float32)
    for flip, shift, scale, period, dim in itertools.product(
        (False, True), (0.0, 0.5, 1.0), (0.5, 1.0, 25.0), (10000, 100), (3, 8, 64, 127, 320)
    ):
        if dim // 2 == shift:  # diffusers divides 0 by 0 (NaN), pe_utils refuses: checked below
            continue
        got = diffusers_embeddings.get_timestep_embedding(
            torch.tensor(steps),
            dim,
            flip_sin_to_cos=flip,
            downscale_freq_shift=shift,
            scale=scale,
            max_period=period,
        )
        expected = pe.timestep_embedding(
            steps.astype(np.float64),
            dim,
            flip_sin_to_cos=flip,
            downscale_freq_shift=shift,
            scale=scale,
            max_period=period,
        )
        omega = pe.timestep_frequencies(dim, downscale_freq_shift=shift, max_period=period)
        theta = scale * np.outer(steps, omega)
        bound = np.tile(angle_bound(theta, np.broadcast_to(omega, theta.shape), EPS32), 2)
        bound = np.concatenate([bound, np.zeros((len(steps), dim % 2))], axis=1)
        check(
            got,
            expected,
            bound,
            convention="diffusion timesteps: flip, shift, scale, max_period, odd pad",
            function="get_timestep_embedding",
            library=DIFFUSERS,
        )


def check_rosetta_timesteps() -> None:
    """The Rosetta stone's timestep rows are diffusers with the flags each names: DDPM (the defaults),
    guided-diffusion and Stable Diffusion (``flip_sin_to_cos=True, downscale_freq_shift=0``)."""
    steps = np.array([0.0, 1.0, 2.5, 10.0, 500.0, 999.0], dtype=np.float32)
    flags = {
        "ddpm": {},
        "guided_diffusion": dict(flip_sin_to_cos=True, downscale_freq_shift=0),
        "stable_diffusion": dict(flip_sin_to_cos=True, downscale_freq_shift=0),
    }
    for name, kwargs in flags.items():
        for dim in (8, 64, 65, 320):
            got = diffusers_embeddings.get_timestep_embedding(torch.tensor(steps), dim, **kwargs)
            expected = pe.rosetta_encoding(name, steps.astype(np.float64), dim)
            shift = kwargs.get("downscale_freq_shift", 1)
            omega = pe.timestep_frequencies(dim, downscale_freq_shift=float(shift))
            theta = np.outer(steps, omega)
            bound = np.tile(angle_bound(theta, np.broadcast_to(omega, theta.shape), EPS32), 2)
            bound = np.concatenate([bound, np.zeros((len(steps), dim % 2))], axis=1)
            check(
                got,
                expected,
                bound,
                convention=f"Rosetta stone: {name}",
                function="get_timestep_embedding (its flags)",
                library=DIFFUSERS,
            )


def check_diffusers_timestep_zero_denominator() -> None:
    """Where ``dim // 2 − shift = 0`` diffusers returns NaN in the first pair; pe_utils refuses."""
    got = diffusers_embeddings.get_timestep_embedding(torch.tensor([0.0, 5.0]), 2, downscale_freq_shift=1)
    check(
        float(np.isnan(to_numpy(got)).any()),
        1.0,
        0.0,
        convention="diffusion timesteps: h − s = 0",
        function="get_timestep_embedding (NaN)",
        library=DIFFUSERS,
    )
    try:
        pe.timestep_embedding(np.array([0.0, 5.0]), 2, downscale_freq_shift=1.0)
    except ValueError:
        return
    raise AssertionError("pe_utils.timestep_embedding accepted dim // 2 − downscale_freq_shift = 0")


def check_diffusers_2d() -> None:
    """``get_2d_sincos_pos_embed`` (float64 on CPU) is MAE's table at its rescaled positions
    ``arange(n)·base_size/n/interpolation_scale`` per axis: ``sincos_2d(..., base_size=,
    interpolation_scale=)``; for ``n = base_size`` and scale 1, ``sincos_2d("mae")``."""
    for d, (h, w), base_size, scale in (
        (8, (4, 4), 4, 1.0),
        (64, (16, 16), 16, 1.0),
        (32, (8, 8), 16, 1.0),
        (64, (12, 12), 16, 2.0),
        (16, (7, 7), 5, 0.5),
        (32, (6, 10), 16, 1.0),
        (16, (5, 3), 4, 2.0),
    ):
        got = diffusers_embeddings.get_2d_sincos_pos_embed(
            d, (h, w), base_size=base_size, interpolation_scale=scale, output_type="pt"
        )
        # diffusers' own positions (float32 arithmetic), then its float64 table: pe_utils at those positions
        column = to_numpy(torch.arange(w, dtype=torch.float32) / (w / base_size) / scale)
        row = to_numpy(torch.arange(h, dtype=torch.float32) / (h / base_size) / scale)
        grid = pe.grid_positions(h, w).astype(int)
        positions = np.stack([column[grid[:, 0]], row[grid[:, 1]]], axis=1)
        omega = pe.geometric_frequencies(d // 4)
        theta = np.abs(positions).max() * omega
        names = dict(
            convention="2-D sin-cos (MAE): [sin x | cos x | sin y | cos y], base_size, interpolation_scale",
            library=DIFFUSERS,
        )
        check(
            got,
            pe.rosetta_encoding("mae", positions, d),
            angle_bound(np.tile(theta, 4), np.tile(omega, 4), EPS64),
            function="get_2d_sincos_pos_embed at its positions",
            **names,
        )
        # pe_utils' own positions in float64: diffusers' float32 positions are off by up to 3 roundings
        bound = 4 * EPS32 * np.tile(theta, 4) + angle_bound(np.tile(theta, 4), np.tile(omega, 4), EPS64)
        check(
            got,
            pe.sincos_2d(h, w, d, base_size=base_size, interpolation_scale=scale),
            bound,
            function="get_2d_sincos_pos_embed (base_size, interpolation_scale)",
            **names,
        )
        if h == w == base_size and scale == 1.0:
            check(
                got,
                pe.sincos_2d(h, w, d, convention="mae"),
                bound,
                function="get_2d_sincos_pos_embed",
                **names,
            )


def check_rosetta_diffusers_2d() -> None:
    """The Rosetta stone's ``diffusers_2d`` row: ``get_2d_sincos_pos_embed(embed_dim, (h, w))`` with its
    default ``base_size=16``."""
    for d, (h, w) in ((16, (4, 4)), (64, (16, 16)), (32, (6, 10)), (8, (20, 3))):
        got = diffusers_embeddings.get_2d_sincos_pos_embed(d, (h, w), output_type="pt")
        expected = pe.rosetta_encoding("diffusers_2d", pe.grid_positions(h, w), d, grid_shape=(h, w))
        omega = pe.geometric_frequencies(d // 4)
        theta = 16.0 * omega
        bound = 4 * EPS32 * np.tile(theta, 4) + angle_bound(np.tile(theta, 4), np.tile(omega, 4), EPS64)
        check(
            got,
            expected,
            bound,
            convention="Rosetta stone: diffusers_2d",
            function="get_2d_sincos_pos_embed (defaults)",
            library=DIFFUSERS,
        )


def check_diffusers_rope() -> None:
    """``get_1d_rotary_pos_embed(use_real=True)`` + ``apply_rotary_emb``: interleaved
    (``repeat_interleave_real``, unbind -1) or half-split (unbind -2), with ``linear_factor``."""
    rng = np.random.default_rng(RNG_SEED + 1)
    for d, theta_base, factor, interleaved, dtype in itertools.product(
        (8, 64, 128), (1e4, 256.0), (1.0, 4.0), (True, False), (torch.float32, torch.float64)
    ):
        positions = np.sort(rng.integers(0, 4096, size=6)).astype(np.float64)
        cos, sin = diffusers_embeddings.get_1d_rotary_pos_embed(
            d,
            positions,
            theta=theta_base,
            use_real=True,
            linear_factor=factor,
            repeat_interleave_real=interleaved,
            freqs_dtype=dtype,
        )
        x = rng.normal(size=(2, 3, 6, d)).astype(np.float32).astype(np.float64)
        got = diffusers_embeddings.apply_rotary_emb(
            torch.tensor(x, dtype=torch.float32),
            (cos, sin),
            use_real=True,
            use_real_unbind_dim=-1 if interleaved else -2,
        )
        layout = "interleaved" if interleaved else "concatenated"
        scaling = None if factor == 1.0 else {"rope_type": "linear", "factor": factor}
        expected = pe.rope(x, positions, base=theta_base, layout=layout, scaling=scaling)
        omega = pe.rope_frequencies(d, base=theta_base, scaling=scaling)
        angle = np.outer(positions, omega)
        bound = columns(angle_bound(angle, np.broadcast_to(omega, angle.shape), EPS32), layout, d)
        bound = bound * pair_magnitude(x, layout) + 4 * EPS32 * np.abs(x)
        check(
            got,
            expected,
            bound,
            convention="RoPE in diffusers: interleaved or half-split, linear_factor",
            function="get_1d_rotary_pos_embed + apply_rotary_emb",
            library=DIFFUSERS,
        )


def _grid_bound(h, w, d, base):
    omega = pe.geometric_frequencies(d // 4, base=base)
    theta = max(h, w) * omega
    return angle_bound(np.tile(theta, 4), np.tile(omega, 4), EPS32)


def check_timm_sincos2d() -> None:
    """``build_sincos2d_pos_embed``: ``[sin y | sin x | cos y | cos x]`` (timm); with
    ``interleave_sin_cos=True`` the MoCo v3 layout ``[sin y | cos y | sin x | cos x]``."""
    timm = timm_sincos()
    for (h, w), d, base in itertools.product(((4, 4), (3, 5), (14, 14)), (8, 64, 128), (1e4, 100.0)):
        got = timm.build_sincos2d_pos_embed([h, w], dim=d, temperature=base)
        bound = _grid_bound(h, w, d, base)
        check(
            got,
            pe.sincos_2d(h, w, d, base=base, convention="timm"),
            bound,
            convention="2-D sin-cos (timm): [sin y | sin x | cos y | cos x]",
            function="build_sincos2d_pos_embed",
            library=TIMM,
        )
        if h == w:
            got = timm.build_sincos2d_pos_embed([h, w], dim=d, temperature=base, interleave_sin_cos=True)
            check(
                got,
                pe.sincos_2d(h, w, d, base=base, convention="mocov3"),
                bound,
                convention="2-D sin-cos (MoCo v3): [sin y | cos y | sin x | cos x]",
                function="build_sincos2d_pos_embed(interleave_sin_cos=True)",
                library=TIMM,
            )


def check_timm_fourier() -> None:
    """``build_fourier_pos_embed(in_pixels=False)``: the timm table (rosetta "timm")."""
    timm = timm_sincos()
    for (h, w), bands in itertools.product(((4, 4), (3, 6)), (2, 16)):
        sin, cos = timm.build_fourier_pos_embed([h, w], num_bands=bands, in_pixels=False)
        got = torch.cat([sin.flatten(-2), cos.flatten(-2)], dim=-1).flatten(0, 1)
        expected = pe.rosetta_encoding("timm", pe.grid_positions(h, w), 4 * bands)
        check(
            got,
            expected,
            _grid_bound(h, w, 4 * bands, 1e4),
            convention="2-D sin-cos (timm): [sin y | sin x | cos y | cos x]",
            function="build_fourier_pos_embed(in_pixels=False)",
            library=TIMM,
        )


def check_timm_fourier_pixels() -> None:
    """``build_fourier_pos_embed(in_pixels=True)`` with log bands and ``max_res = 2^L``: NeRF's octaves
    ``2^k·π`` on pixel coordinates in [−1, 1] (``sinusoid_table(octave_frequencies(L), angle_scale=π)``)."""
    timm = timm_sincos()
    for (h, w), octaves in itertools.product(((4, 4), (3, 6)), (4, 8)):
        sin, cos = timm.build_fourier_pos_embed([h, w], num_bands=octaves, max_res=2**octaves, in_pixels=True)
        got = torch.cat([sin.flatten(-2), cos.flatten(-2)], dim=-1).flatten(0, 1)
        rows, cols = np.meshgrid(np.linspace(-1, 1, h), np.linspace(-1, 1, w), indexing="ij")
        positions = np.stack([rows.ravel(), cols.ravel()], axis=1)  # timm's axis order: y, then x
        omega = pe.octave_frequencies(octaves)
        expected = pe.sinusoid_table(
            positions, omega, angle_scale=np.pi, nesting=("trig", "axis", "frequency")
        )
        theta = np.pi * omega
        check(
            got,
            expected,
            angle_bound(np.tile(theta, 4), np.tile(omega, 4), EPS32, k=12),
            convention="Fourier features on pixels: octaves 2^k pi (NeRF's grid)",
            function="build_fourier_pos_embed(in_pixels=True, log bands)",
            library=TIMM,
        )


def check_timm_axial_rope() -> None:
    """``build_rotary_pos_embed(in_pixels=False)`` + ``apply_rot_embed``: axial RoPE,
    ``rope_nd(axial_rope_frequencies)``; ``grid_indexing="ij"`` turns the first pairs with the row y,
    ``"xy"`` with the column x; ``rotate_half`` is the half-split layout."""
    timm = timm_sincos()
    rng = np.random.default_rng(RNG_SEED + 2)
    for (h, w), d, base, indexing, half in itertools.product(
        ((4, 4), (3, 5)), (8, 64), (100.0, 1e4), ("ij", "xy"), (False, True)
    ):
        sin, cos = timm.build_rotary_pos_embed(
            [h, w], dim=d, temperature=base, in_pixels=False, grid_indexing=indexing, rotate_half=half
        )
        x = rng.normal(size=(2, h * w, d)).astype(np.float32).astype(np.float64)
        got = timm.apply_rot_embed(torch.tensor(x, dtype=torch.float32), sin, cos, half=half)
        positions = pe.grid_positions(h, w)
        if indexing == "ij":
            positions = positions[:, ::-1]
        layout = "concatenated" if half else "interleaved"
        matrix = pe.axial_rope_frequencies(d, base=base)
        expected = pe.rope_nd(x, positions, matrix, layout=layout)
        phase = positions @ matrix
        omega = matrix.max(axis=0)
        bound = columns(angle_bound(phase, np.broadcast_to(omega, phase.shape), EPS32), layout, d)
        bound = bound * pair_magnitude(x, layout) + 4 * EPS32 * np.abs(x)
        check(
            got,
            expected,
            bound,
            convention="axial 2-D RoPE: pairs per axis",
            function="build_rotary_pos_embed + apply_rot_embed",
            library=TIMM,
        )


def check_timm_mixed_rope(monkeypatch=None) -> None:
    """``RotaryEmbeddingMixed``: at the same angles α (timm draws them with ``torch.rand``; here fed the
    draws of ``mixed_rope_frequencies``' generator), its frequencies are ``mixed_rope_frequencies`` and its
    embedding rotates as ``rope_nd``."""
    timm = timm_sincos()
    rng = np.random.default_rng(RNG_SEED + 3)
    for head_dim, heads, seed in ((8, 2, 0), (32, 4, 1), (64, 3, 2)):
        alpha = np.random.default_rng(seed).uniform(0.0, 2.0 * np.pi, size=heads)
        original = torch.rand
        draws = torch.tensor(alpha / (2 * np.pi), dtype=torch.float32)
        torch.rand = lambda *shape, draws=draws, **kw: draws.view(*shape)
        try:
            module = timm.RotaryEmbeddingMixed(head_dim * heads, depth=1, num_heads=heads, temperature=10.0)
        finally:
            torch.rand = original
        expected = pe.mixed_rope_frequencies(head_dim, heads, base=10.0, rng=seed)
        got = module.freqs.detach()[:, 0].permute(1, 0, 2)  # (heads, axis, pairs)
        check(
            got,
            expected,
            8 * EPS32 * (1 + np.abs(np.log(np.abs(expected) + 1e-30))) * np.abs(expected)
            + 8 * EPS32 * np.abs(expected).max(),
            convention="RoPE-Mixed: frequency vectors mu (cos a, sin a), mu (-sin a, cos a)",
            function="RotaryEmbeddingMixed (init_random_2d_freqs)",
            library=TIMM,
        )
        h, w = 3, 4
        embed = module.get_embed([h, w])[0]  # (heads, n, 2·head_dim): sin | cos
        x = rng.normal(size=(heads, h * w, head_dim)).astype(np.float32).astype(np.float64)
        got = timm.apply_rot_embed_cat(torch.tensor(x, dtype=torch.float32), embed)
        positions = pe.grid_positions(h, w)
        rotated = pe.rope_nd(x, positions, expected[:, None], layout="interleaved")
        phase = np.einsum("na,hai->hni", positions, expected)
        bound = columns(angle_bound(phase, 0.1, EPS32, k=30), "interleaved", head_dim)
        bound = bound * pair_magnitude(x, "interleaved") + 4 * EPS32 * np.abs(x)
        check(
            got,
            rotated,
            bound,
            convention="RoPE-Mixed: frequency vectors mu (cos a, sin a), mu (-sin a, cos a)",
            function="RotaryEmbeddingMixed.get_embed + apply_rot_embed_cat",
            library=TIMM,
        )


CHECKS = {
    name[len("check_") :]: function
    for name, function in sorted(globals().items())
    if name.startswith("check_") and callable(function)
}
