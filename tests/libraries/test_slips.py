"""Planted slips: each breaks one pe_utils convention in a small way, and some check must then fail.

A slip replaces one pe_utils function (by monkeypatch, for the duration of the test) with a variant
that makes a mistake practitioners make: sin and cos swapped, a factor dropped, a denominator
shifted, a permutation inverted, an offset off by one. The test runs the checks of that convention
(test_libraries.py runs the same ones unpatched) and passes only if one of them raises AssertionError:
the comparison with the real library saw the slip. A slip no check sees would mean a check too weak.
"""

from __future__ import annotations

import math

import checks_torch as ct
import checks_transformers as tf
import checks_vision as cv
import numpy as np
import pytest
from _support import not_recorded

import pe_utils
import pe_utils.beyond_text

ORIGINAL = {name: getattr(pe_utils, name) for name in dir(pe_utils) if not name.startswith("_")}
ORIGINAL["beyond_text.timestep_frequencies"] = pe_utils.beyond_text.timesteps.timestep_frequencies


def rope_clockwise(x, positions, **kw):
    return ORIGINAL["rope"](x, -np.asarray(positions, dtype=np.float64), **kw)


def rope_layout_swapped(x, positions, *, layout="interleaved", **kw):
    other = "concatenated" if layout == "interleaved" else "interleaved"
    return ORIGINAL["rope"](x, positions, layout=other, **kw)


def frequencies_denominator_shifted(d_model, **kw):
    return ORIGINAL["rope_frequencies"](d_model, **kw) ** (d_model / (d_model - 2))  # base^(−2i/(d−2))


def yarn_scale_factor_dropped(factor):
    return 1.0 if factor <= 1 else math.log(factor) + 1.0  # 0.1 dropped


def llama3_length_off(d_model, *, scaling=None, **kw):
    if scaling and scaling.get("rope_type") == "llama3":
        scaling = {
            **scaling,
            "original_max_position_embeddings": round(scaling["original_max_position_embeddings"] * 1.05),
        }
    return ORIGINAL["rope_frequencies"](d_model, scaling=scaling, **kw)


def dynamic_length_off_by_one(d_model, *, seq_len=None, **kw):
    return ORIGINAL["rope_frequencies"](d_model, seq_len=None if seq_len is None else seq_len + 1, **kw)


def positions_arange(mask):
    mask = np.asarray(mask)
    return np.broadcast_to(np.arange(mask.shape[1]), mask.shape).copy()


def permute_inverted(weight, n_heads, *, to="concatenated"):
    return ORIGINAL["permute_qk_rows"](
        weight, n_heads, to="interleaved" if to == "concatenated" else "concatenated"
    )


def mrope_sections_reversed(head_dim, section, **kw):
    return ORIGINAL["mrope_frequencies"](head_dim, list(section)[::-1], **kw)


def fairseq_offset_one(name, n, d, **kw):
    if name == "fairseq":
        return pe_utils.sinusoidal_pe_variant(
            n, d, layout="concatenated", denominator="d/2-1", first_position=1
        )
    return ORIGINAL["convention_table"](name, n, d, **kw)


def marian_interleaved(name, n, d, **kw):
    return ORIGINAL["convention_table"]("vaswani2017" if name == "marian" else name, n, d, **kw)


def timestep_sin_cos_swapped(timesteps, dim, *, flip_sin_to_cos=False, **kw):
    return ORIGINAL["timestep_embedding"](timesteps, dim, flip_sin_to_cos=not flip_sin_to_cos, **kw)


def timestep_shift_ignored(dim, *, downscale_freq_shift=1.0, **kw):
    return ORIGINAL["beyond_text.timestep_frequencies"](dim, downscale_freq_shift=0.0, **kw)


def sincos_2d_axes_swapped(height, width, d_model, **kw):
    table = ORIGINAL["sincos_2d"](width, height, d_model, **kw)
    return table.reshape(width, height, d_model).transpose(1, 0, 2).reshape(-1, d_model)


def alibi_odd_extra_slopes(n_heads):
    slopes = ORIGINAL["alibi_slopes"](n_heads)
    power = 1 << (n_heads.bit_length() - 1)
    if power < n_heads:
        ratio = 2.0 ** (-8.0 / (2 * power))
        slopes[power:] = [ratio ** (h + 1) for h in range(1, 2 * (n_heads - power), 2)]
    return slopes


def bfloat16_ties_away(values):
    values = np.asarray(values, dtype=np.float64)
    rounded = ORIGINAL["round_to_bfloat16"](values)
    with np.errstate(all="ignore"):
        _, exponent = np.frexp(values)
        spacing = np.ldexp(1.0, np.maximum(exponent - 8, -133))
        tie = np.isfinite(values) & (np.abs(values / spacing - np.trunc(values / spacing)) == 0.5)
        away = np.sign(values) * (np.abs(np.trunc(values / spacing)) + 1) * spacing
    return np.where(tie, away, rounded)


def axial_axes_swapped(head_dim, **kw):
    return ORIGINAL["axial_rope_frequencies"](head_dim, **kw)[::-1].copy()


def mixed_axes_swapped(head_dim, n_heads, **kw):
    return ORIGINAL["mixed_rope_frequencies"](head_dim, n_heads, **kw)[:, ::-1].copy()


def mrope_never_interleaved(head_dim, section, *, interleaved=False, **kw):
    return ORIGINAL["mrope_frequencies"](head_dim, section, **kw)


def causal_across_documents(lengths):
    return np.tri(int(np.sum(lengths)), dtype=bool)


SLIPS = {
    # name: (where, replacement, the checks that must see it)
    "rope turns clockwise (sign of sin flipped)": (
        "rope",
        rope_clockwise,
        [tf.check_apply_llama, tf.check_apply_gptj, cv.check_diffusers_rope],
    ),
    "rope pairs the other layout": ("rope", rope_layout_swapped, [tf.check_apply_llama, tf.check_apply_gptj]),
    "RoPE frequency denominator d − 2 instead of d": (
        "rope_frequencies",
        frequencies_denominator_shifted,
        [tf.check_rope_default, tf.check_rope_linear],
    ),
    "YaRN attention factor: 0.1 dropped": (
        "yarn_attention_scale",
        yarn_scale_factor_dropped,
        [tf.check_rope_yarn],
    ),
    "Llama 3.1: L 5 % off": ("rope_frequencies", llama3_length_off, [tf.check_rope_llama3]),
    "dynamic NTK: length off by one": (
        "rope_frequencies",
        dynamic_length_off_by_one,
        [tf.check_rope_dynamic],
    ),
    "position ids: arange instead of cumsum(mask) − 1": (
        "positions_from_mask",
        positions_arange,
        [tf.check_generate_real_tokens],
    ),
    "checkpoint permute inverted": ("permute_qk_rows", permute_inverted, [tf.check_permute]),
    "M-RoPE sections reversed": ("mrope_frequencies", mrope_sections_reversed, [tf.check_mrope]),
    "fairseq: first token at 1 instead of 2": (
        "convention_table",
        fairseq_offset_one,
        [tf.check_speech2text, tf.check_m2m100],
    ),
    "Marian table interleaved": ("convention_table", marian_interleaved, [tf.check_marian]),
    "timesteps: sin and cos swapped": (
        "timestep_embedding",
        timestep_sin_cos_swapped,
        [cv.check_diffusers_timestep],
    ),
    "timesteps: downscale_freq_shift ignored": (
        "beyond_text.timestep_frequencies",
        timestep_shift_ignored,
        [cv.check_diffusers_timestep],
    ),
    "2-D table: x and y swapped": (
        "sincos_2d",
        sincos_2d_axes_swapped,
        [cv.check_timm_sincos2d, cv.check_diffusers_2d],
    ),
    "ALiBi: extra slopes odd instead of even": ("alibi_slopes", alibi_odd_extra_slopes, [tf.check_alibi]),
    "bfloat16: ties away from zero": (
        "round_to_bfloat16",
        bfloat16_ties_away,
        [ct.check_bfloat16_float32, tf.check_bfloat16_inv_freq],
    ),
    "axial RoPE: x and y swapped": ("axial_rope_frequencies", axial_axes_swapped, [cv.check_timm_axial_rope]),
    "RoPE-Mixed: x and y frequencies swapped": (
        "mixed_rope_frequencies",
        mixed_axes_swapped,
        [cv.check_timm_mixed_rope],
    ),
    "M-RoPE: Qwen3-VL's interleave ignored": (
        "mrope_frequencies",
        mrope_never_interleaved,
        [tf.check_mrope_interleaved],
    ),
    "packing: attention across documents": ("block_causal_mask", causal_across_documents, [tf.check_packing]),
}


@pytest.mark.parametrize("name", list(SLIPS))
def test_slip_fails_a_check(name, monkeypatch):
    where, replacement, checks = SLIPS[name]
    module = pe_utils.beyond_text.timesteps if where.startswith("beyond_text.") else pe_utils
    monkeypatch.setattr(module, where.removeprefix("beyond_text."), replacement)
    caught = []
    with not_recorded():
        for check in checks:
            try:
                check()
            except AssertionError as error:
                caught.append(f"{check.__name__}: {str(error).splitlines()[0][:160]}")
    assert caught, f"slip {name!r} passed every check of its convention: {[c.__name__ for c in checks]}"
    print(f"slip {name!r} caught by {caught[0]}")


def test_at_least_ten_slips():
    assert len(SLIPS) >= 10
