"""Conventions of huggingface/transformers, each run beside pe_utils (see _support for the bounds).

Every ``check_*`` function runs the library's own code on random inputs of several sizes and raises
AssertionError where pe_utils disagrees beyond the stated bound. test_libraries.py runs each one;
test_slips.py runs them again with a slip planted in pe_utils and expects a failure.
"""

from __future__ import annotations

import numpy as np
import torch
from _support import (
    EPS32,
    EPS64,
    angle_bound,
    check,
    columns,
    exact,
    frequency_bound,
    pair_magnitude,
    to_numpy,
)
from libs import float64_variant
from transformers import (
    GPTJConfig,
    GPTNeoXConfig,
    LlamaConfig,
    LlamaForCausalLM,
    PhiConfig,
)
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.gpt_neox import modeling_gpt_neox as neox
from transformers.models.gptj import modeling_gptj as gptj
from transformers.models.llama import modeling_llama as llama
from transformers.models.phi import modeling_phi as phi
from transformers.models.qwen2_vl import modeling_qwen2_vl as qwen2_vl
from transformers.models.qwen2_vl.configuration_qwen2_vl import Qwen2VLTextConfig

import pe_utils as pe

LIB = "transformers"
RNG_SEED = 20261128
HEAD_DIMS = (8, 64, 128)
BASES = (1e4, 5e5)


def _config(
    d: int, base: float, rope: dict | None = None, *, max_positions: int = 4096, cls=LlamaConfig, **extra
):
    parameters = {"rope_type": "default", "rope_theta": base, **(rope or {})}
    return cls(
        hidden_size=2 * d,
        num_attention_heads=2,
        head_dim=d,
        max_position_embeddings=max_positions,
        rope_parameters=parameters,
        **extra,
    )


def _frequencies(name: str, function, config, expected, extra: float = 1.0, **kwargs) -> None:
    """The float32 original and its float64 variant (the same source, float64) against pe_utils."""
    omega32, factor32 = function(config, **kwargs)
    check(
        omega32,
        expected,
        frequency_bound(expected, EPS32, extra),
        convention=name,
        function=f"{function.__qualname__} (float32)",
        library=LIB,
    )
    omega64, factor64 = float64_variant(function)(config, **kwargs)
    assert omega64.dtype == torch.float64
    check(
        omega64,
        expected,
        frequency_bound(expected, EPS64, extra),
        convention=name,
        function=f"{function.__qualname__} (float64 variant)",
        library=LIB,
    )
    return factor32


def check_rope_default() -> None:
    for d in HEAD_DIMS:
        for base in BASES:
            _frequencies(
                "RoPE frequencies base^(-2i/d)",
                llama.LlamaRotaryEmbedding.compute_default_rope_parameters,
                _config(d, base),
                pe.rope_frequencies(d, base=base),
            )


def check_rope_linear() -> None:
    for d in HEAD_DIMS:
        for base in BASES:
            for factor in (2.0, 8.0):
                config = _config(d, base, {"rope_type": "linear", "factor": factor})
                expected = pe.rope_frequencies(
                    d, base=base, scaling={"rope_type": "linear", "factor": factor}
                )
                _frequencies(
                    "RoPE linear (position interpolation)", ROPE_INIT_FUNCTIONS["linear"], config, expected
                )


def check_rope_dynamic() -> None:
    for d in HEAD_DIMS:
        for base in BASES:
            for factor in (2.0, 4.0):
                length = 2048
                config = _config(d, base, {"rope_type": "dynamic", "factor": factor}, max_positions=length)
                for seq_len in (length // 2, length, length + 1, 3 * length, 10 * length):
                    rule = {
                        "rope_type": "dynamic",
                        "factor": factor,
                        "original_max_position_embeddings": length,
                    }
                    expected = pe.rope_frequencies(d, base=base, scaling=rule, seq_len=seq_len)
                    _frequencies(
                        "RoPE dynamic NTK at length n (L = max_position_embeddings)",
                        ROPE_INIT_FUNCTIONS["dynamic"],
                        config,
                        expected,
                        seq_len=seq_len,
                    )


def check_rope_dynamic_forward() -> None:
    """``LlamaRotaryEmbedding.forward`` recomputes the dynamic frequencies at ``max(position_ids) + 1``."""
    d, base, length, factor = 64, 1e4, 256, 4.0
    config = _config(d, base, {"rope_type": "dynamic", "factor": factor}, max_positions=length)
    rotary = llama.LlamaRotaryEmbedding(config)
    for n in (length // 2, 3 * length):
        positions = torch.arange(n)[None]
        cos, sin = rotary(torch.zeros(1, dtype=torch.float32), positions)
        rule = {"rope_type": "dynamic", "factor": factor, "original_max_position_embeddings": length}
        omega = pe.rope_frequencies(d, base=base, scaling=rule, seq_len=n)
        theta = np.outer(np.arange(n), omega)
        bound = columns(angle_bound(theta, omega, EPS32), "concatenated", d)
        check(
            cos[0],
            columns(np.cos(theta), "concatenated", d),
            bound,
            convention="RoPE dynamic NTK at length n (L = max_position_embeddings)",
            function="LlamaRotaryEmbedding.forward (dynamic_rope_update)",
            library=LIB,
        )
        check(
            sin[0],
            columns(np.sin(theta), "concatenated", d),
            bound,
            convention="RoPE dynamic NTK at length n (L = max_position_embeddings)",
            function="LlamaRotaryEmbedding.forward (dynamic_rope_update)",
            library=LIB,
        )


def check_rope_yarn() -> None:
    for d in HEAD_DIMS:
        for base in BASES:
            for factor in (2.0, 4.0, 16.0):
                for length in (2048, 4096):
                    for truncate in (True, False):
                        rope = {
                            "rope_type": "yarn",
                            "factor": factor,
                            "original_max_position_embeddings": length,
                            "truncate": truncate,
                        }
                        config = _config(d, base, rope, max_positions=int(factor * length))
                        expected = pe.rope_frequencies(d, base=base, scaling=rope)
                        attention = _frequencies(
                            "RoPE YaRN (NTK-by-parts ramp)",
                            ROPE_INIT_FUNCTIONS["yarn"],
                            config,
                            expected,
                            extra=max(factor, 1.0),
                        )
                        check(
                            attention,
                            pe.yarn_attention_scale(factor),
                            4 * EPS64,
                            convention="YaRN attention factor 0.1 ln s + 1",
                            function="_compute_yarn_parameters (attention_factor)",
                            library=LIB,
                        )
    for factor in (0.5, 1.0):  # the guard: 1 for s <= 1
        rope = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": 4096}
        _, attention = ROPE_INIT_FUNCTIONS["yarn"](_config(64, 1e4, rope, max_positions=4096))
        exact(
            attention,
            pe.yarn_attention_scale(factor),
            convention="YaRN attention factor 0.1 ln s + 1",
            function="_compute_yarn_parameters (attention_factor)",
            library=LIB,
        )


def check_rope_yarn_tables() -> None:
    """The rotary module multiplies cos and sin by the attention factor."""
    d, base, factor, length = 64, 1e4, 8.0, 1024
    rope = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": length}
    rotary = llama.LlamaRotaryEmbedding(_config(d, base, rope, max_positions=int(factor * length)))
    positions = torch.tensor([[0, 1, 7, 1000, 8000]])
    cos, sin = rotary(torch.zeros(1, dtype=torch.float32), positions)
    omega = pe.rope_frequencies(d, base=base, scaling=rope)
    theta = np.outer(to_numpy(positions[0]), omega)
    scale = pe.yarn_attention_scale(factor)
    bound = columns(angle_bound(theta, omega, EPS32) * scale, "concatenated", d)
    for got, want in ((cos, np.cos(theta)), (sin, np.sin(theta))):
        check(
            got[0],
            columns(want * scale, "concatenated", d),
            bound,
            convention="YaRN attention factor 0.1 ln s + 1",
            function="LlamaRotaryEmbedding.forward (cos, sin times attention_scaling)",
            library=LIB,
        )


def check_rope_llama3() -> None:
    for d in HEAD_DIMS:
        for base in (5e5, 1e4):
            for factor, low, high, length in (
                (8.0, 1.0, 4.0, 8192),
                (4.0, 2.0, 8.0, 2048),
                (32.0, 1.0, 4.0, 8192),
            ):
                rope = {
                    "rope_type": "llama3",
                    "factor": factor,
                    "low_freq_factor": low,
                    "high_freq_factor": high,
                    "original_max_position_embeddings": length,
                }
                config = _config(d, base, rope, max_positions=int(factor * length))
                _frequencies(
                    "RoPE Llama 3.1 bands",
                    ROPE_INIT_FUNCTIONS["llama3"],
                    config,
                    pe.rope_frequencies(d, base=base, scaling=rope),
                    extra=factor,
                )


def check_rope_proportional() -> None:
    for d in (64, 128, 512):
        for proportion in (0.25, 0.5, 1.0):
            rope = {"rope_type": "proportional", "partial_rotary_factor": proportion}
            config = _config(d, 1e6, rope)
            _frequencies(
                "p-RoPE: proportional (Gemma 4) = p_rope_frequencies",
                ROPE_INIT_FUNCTIONS["proportional"],
                config,
                pe.p_rope_frequencies(d, proportion, base=1e6),
            )


def check_rope_partial_frequencies() -> None:
    for d in (64, 96, 128):
        for proportion in (0.25, 0.5):
            r = int(d * proportion)
            config = _config(d, 1e4, {"partial_rotary_factor": proportion}, cls=GPTNeoXConfig)
            _frequencies(
                "partial rotary: frequencies over r, base^(-2i/r)",
                neox.GPTNeoXRotaryEmbedding.compute_default_rope_parameters,
                config,
                pe.rope_frequencies(r, base=1e4),
            )


# --- applying RoPE ---------------------------------------------------------------------------------


def _rows(rng, batch: int, heads: int, n: int, d: int) -> np.ndarray:
    return rng.normal(size=(batch, heads, n, d))


def _positions(rng, batch: int, n: int, largest: int) -> np.ndarray:
    return np.sort(rng.integers(0, largest, size=(batch, n)), axis=1)


def _check_rotated(got, x, positions, omega, layout, r, eps, *, convention, function, scale=1.0):
    """``got`` against ``pe.rope``'s rotation, with the per-entry bound of ``eps`` angles."""
    d = x.shape[-1]
    expected = pe.rope(x, positions[:, None, :], base=_check_rotated.base, layout=layout, rotary_dims=r)
    theta = positions[:, None, :, None] * omega
    bound = columns(angle_bound(theta, np.broadcast_to(omega, theta.shape), eps), layout, d)
    bound = bound * pair_magnitude(x, layout, r) + 4 * eps * np.abs(x) + 1e-300
    return check(got, expected, bound, convention=convention, function=function, library=LIB)


def check_apply_llama() -> None:
    """``apply_rotary_pos_emb`` + ``rotate_half`` is ``rope(layout="concatenated")``."""
    rng = np.random.default_rng(RNG_SEED)
    for d in HEAD_DIMS:
        for base in BASES:
            config = _config(d, base)
            x, positions = _rows(rng, 2, 3, 5, d), _positions(rng, 2, 5, 100_000)
            rotary = llama.LlamaRotaryEmbedding(config)
            omega = pe.rope_frequencies(d, base=base)
            _check_rotated.base = base
            # float64: the module's forward, recompiled in float64, with float64 inv_freq
            rotary.inv_freq = float64_variant(llama.LlamaRotaryEmbedding.compute_default_rope_parameters)(
                config
            )[0]
            forward64 = float64_variant(llama.LlamaRotaryEmbedding.forward).__get__(rotary)
            q = torch.tensor(x)
            cos, sin = forward64(q, torch.tensor(positions))
            q_rot, k_rot = llama.apply_rotary_pos_emb(q, q.clone(), cos, sin)
            for got in (q_rot, k_rot):
                _check_rotated(
                    got,
                    x,
                    positions,
                    omega,
                    "concatenated",
                    None,
                    EPS64,
                    convention="RoPE applied: rotate_half pairs (i, i + d/2), counter-clockwise",
                    function="llama apply_rotary_pos_emb, rotate_half (float64)",
                )
            # float32: the module as shipped
            rotary32 = llama.LlamaRotaryEmbedding(config)
            q32 = torch.tensor(x, dtype=torch.float32)
            cos, sin = rotary32(q32, torch.tensor(positions))
            q_rot, _ = llama.apply_rotary_pos_emb(q32, q32, cos, sin)
            _check_rotated(
                q_rot,
                to_numpy(q32),
                positions,
                omega,
                "concatenated",
                None,
                EPS32,
                convention="RoPE applied: rotate_half pairs (i, i + d/2), counter-clockwise",
                function="LlamaRotaryEmbedding + apply_rotary_pos_emb (float32)",
            )


def check_apply_gptj() -> None:
    """GPT-J: ``rotate_every_two`` on the first ``rotary_dim`` dimensions is ``rope(layout="interleaved",
    rotary_dims=r)``; the other dimensions pass through (as ``GPTJAttention`` splits them)."""
    rng = np.random.default_rng(RNG_SEED + 1)
    _check_rotated.base = 1e4
    for d, r in ((64, 64), (64, 16), (256, 64), (8, 4)):
        default = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)  # the table in float64 (its own code, float64 arange)
        try:
            rotary = gptj.GPTJRotaryEmbedding(
                GPTJConfig(n_embd=2 * d, n_head=2, rotary_dim=r, n_positions=4096)
            )
        finally:
            torch.set_default_dtype(default)
        x, positions = _rows(rng, 2, 2, 6, d), _positions(rng, 2, 6, 4096)
        key = torch.tensor(x).transpose(1, 2)  # GPT-J rotates (batch, n, heads, d)
        sin, cos = rotary(key, torch.tensor(positions))
        k_rot = gptj.apply_rotary_pos_emb(key[..., :r], sin, cos)
        got = torch.cat([k_rot, key[..., r:]], dim=-1).transpose(1, 2)
        _check_rotated(
            got,
            x,
            positions,
            pe.rope_frequencies(r),
            "interleaved",
            r,
            EPS64,
            convention="GPT-J: interleaved pairs (2i, 2i+1), rotary_dim",
            function="gptj create_sinusoidal_positions, apply_rotary_pos_emb (rotate_every_two)",
        )


def _apply_partial(module, q, cos, sin, r):
    """GPT-NeoX's apply_rotary_pos_emb splits off the pass-through dimensions itself; PhiAttention splits
    them before calling it (``query_states[..., : self.rotary_ndims]``), as done here."""
    if module is phi:
        rotated, _ = module.apply_rotary_pos_emb(q[..., :r], q[..., :r], cos, sin)
        return torch.cat([rotated, q[..., r:]], dim=-1)
    rotated, _ = module.apply_rotary_pos_emb(q, q, cos, sin)
    return rotated


def _check_partial(module, config_cls, convention, **config_extra):
    rng = np.random.default_rng(RNG_SEED + 2)
    _check_rotated.base = 1e4
    for d in (64, 96):
        for proportion in (0.25, 0.5, 0.75):
            r = int(d * proportion)
            if r % 2:
                continue
            config = _config(d, 1e4, {"partial_rotary_factor": proportion}, cls=config_cls, **config_extra)
            rotary = getattr(module, [name for name in dir(module) if name.endswith("RotaryEmbedding")][0])(
                config
            )
            x, positions = _rows(rng, 2, 2, 5, d), _positions(rng, 2, 5, 50_000)
            rotary.inv_freq = float64_variant(type(rotary).compute_default_rope_parameters)(config)[0]
            forward64 = float64_variant(type(rotary).forward).__get__(rotary)
            q = torch.tensor(x)
            cos, sin = forward64(q, torch.tensor(positions))
            q_rot = _apply_partial(module, q, cos, sin, r)
            _check_rotated(
                q_rot,
                x,
                positions,
                pe.rope_frequencies(r),
                "concatenated",
                r,
                EPS64,
                convention=convention,
                function=f"{module.__name__.split('.')[-1]} apply_rotary_pos_emb (partial, float64)",
            )
            rotary32 = type(rotary)(config)
            q32 = torch.tensor(x, dtype=torch.float32)
            cos, sin = rotary32(q32, torch.tensor(positions))
            q_rot = _apply_partial(module, q32, cos, sin, r)
            _check_rotated(
                q_rot,
                to_numpy(q32),
                positions,
                pe.rope_frequencies(r),
                "concatenated",
                r,
                EPS32,
                convention=convention,
                function=f"{type(rotary).__name__} + apply_rotary_pos_emb (float32)",
            )


def check_partial_neox() -> None:
    _check_partial(neox, GPTNeoXConfig, "GPT-NeoX partial rotary: half-split within r (rotary_pct)")


def check_partial_phi() -> None:
    _check_partial(phi, PhiConfig, "Phi partial rotary: half-split within r (partial_rotary_factor)")


# --- converting Meta's checkpoints -------------------------------------------------------------------


def hf_permute(w, n_heads, dim1, dim2):
    """``permute`` of huggingface/transformers
    ``src/transformers/models/llama/convert_llama_weights_to_hf.py`` (commit 6ae9169c, the same at
    01cc9cd9): the conversion scripts are not shipped in the wheel, so the one line is copied here and
    run in torch."""
    return w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)


def check_permute() -> None:
    """``permute_qk_rows`` = the conversion's ``permute`` (GQA keys too), and interleaved RoPE on Meta's
    weights (GPT-J's apply) gives the scores of ``rotate_half`` on the permuted weights (Llama's apply)."""
    rng = np.random.default_rng(RNG_SEED + 3)
    for n_heads, n_kv, d, d_in in ((4, 4, 8, 16), (8, 2, 16, 32), (32, 8, 128, 64)):
        wq, wk = rng.normal(size=(n_heads * d, d_in)), rng.normal(size=(n_kv * d, d_in))
        names = dict(
            convention="checkpoint conversion: permute of W_q, W_k (GQA keys)",
            function="convert_llama_weights_to_hf permute (@6ae9169c)",
            library=LIB,
        )
        hf_q = hf_permute(torch.tensor(wq), n_heads, n_heads * d, d_in)
        hf_k = hf_permute(torch.tensor(wk), n_kv, n_kv * d, d_in)
        exact(hf_q, pe.permute_qk_rows(wq, n_heads), **names)
        exact(hf_k, pe.permute_qk_rows(wk, n_kv), **names)
        exact(torch.tensor(wq), pe.permute_qk_rows(to_numpy(hf_q), n_heads, to="interleaved"), **names)
        # Scores: Meta's interleaved rotation on Meta's rows = rotate_half on the permuted rows.
        x, positions = rng.normal(size=(1, 5, d_in)), np.array([[0, 3, 4, 90, 1000]])
        cos64, sin64 = [
            torch.tensor(f(np.outer(positions[0], pe.rope_frequencies(d)))) for f in (np.cos, np.sin)
        ]
        meta_q = torch.tensor(x @ wq.T).view(1, 5, n_heads, d)
        meta_k = torch.tensor(x @ wk.T).view(1, 5, n_kv, d)
        meta_q, meta_k = (gptj.apply_rotary_pos_emb(t, sin64[None], cos64[None]) for t in (meta_q, meta_k))
        hf_q_rows = torch.tensor(x @ pe.permute_qk_rows(wq, n_heads).T).view(1, 5, n_heads, d).transpose(1, 2)
        hf_k_rows = torch.tensor(x @ pe.permute_qk_rows(wk, n_kv).T).view(1, 5, n_kv, d).transpose(1, 2)
        cat = torch.cat
        hf_q_rows, hf_k_rows = llama.apply_rotary_pos_emb(
            hf_q_rows, hf_k_rows, cat([cos64, cos64], -1)[None], cat([sin64, sin64], -1)[None]
        )
        group = n_heads // n_kv
        meta_scores = torch.einsum("bqhe,bkhe->bhqk", meta_q, meta_k.repeat_interleave(group, dim=2))
        hf_scores = torch.einsum("bhqe,bhke->bhqk", hf_q_rows, hf_k_rows.repeat_interleave(group, dim=1))
        scale = float(torch.abs(meta_scores).max())
        check(
            hf_scores,
            to_numpy(meta_scores),
            64 * EPS64 * d * max(scale, 1.0),
            convention="checkpoint conversion: permute of W_q, W_k (GQA keys)",
            function="gptj apply (Meta rows) vs llama apply (permuted rows): scores",
            library=LIB,
        )


# --- generation --------------------------------------------------------------------------------------


def tiny_llama(seed: int = 0, **config) -> LlamaForCausalLM:
    torch.manual_seed(seed)
    settings = dict(
        vocab_size=61,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=256,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
    )
    settings.update(config)
    model = LlamaForCausalLM(LlamaConfig(**settings))
    model.eval()
    return model


def generate_position_ids(model, input_ids, attention_mask, new_tokens: int = 3) -> list[np.ndarray]:
    """The ``position_ids`` ``generate`` feeds the model at the prompt and at each decode step."""
    seen: list[np.ndarray] = []

    def hook(module, args, kwargs):
        seen.append(to_numpy(kwargs["position_ids"]).astype(np.int64))

    handle = model.model.register_forward_pre_hook(hook, with_kwargs=True)
    try:
        with torch.no_grad():
            model.generate(
                input_ids=input_ids,
                attention_mask=attention_mask,
                max_new_tokens=new_tokens,
                min_new_tokens=new_tokens,
                do_sample=False,
                pad_token_id=0,
            )
    finally:
        handle.remove()
    return seen


MASKS = {
    "left-padded": [[0, 0, 1, 1, 1], [1, 1, 1, 1, 1], [0, 0, 0, 0, 1]],
    "right-padded": [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 0]],
}


def _generate(mask_name: str):
    mask = torch.tensor(MASKS[mask_name])
    ids = torch.randint(3, 61, mask.shape, generator=torch.Generator().manual_seed(5)) * mask
    return mask, generate_position_ids(tiny_llama(), ids, mask)


def check_generate_real_tokens() -> None:
    """The prompt's real tokens get ``cumsum(mask) − 1`` (left or right padding), and with left padding
    (or none) each decode step's id is the number of real tokens before it."""
    for name in MASKS:
        mask, seen = _generate(name)
        real = to_numpy(mask) == 1
        exact(
            seen[0][real],
            pe.positions_from_mask(mask.numpy())[real],
            convention="position ids of a padded batch (real tokens)",
            function="generate: _prepare_position_ids_for_generation",
            library=LIB,
        )
    mask, seen = _generate("left-padded")
    grown = mask.numpy()
    for step in seen[1:]:
        grown = np.concatenate([grown, np.ones((grown.shape[0], 1), dtype=grown.dtype)], axis=1)
        exact(
            step[:, -1],
            pe.positions_from_mask(grown)[:, -1],
            convention="decode step ids, left padding: real tokens before it",
            function="generate: _update_model_kwargs_for_generation",
            library=LIB,
        )


def check_generate_padded_slots() -> None:
    """transformers 5.x puts 0 at padded slots (4.x put 1): all ids of the prompt, padded slots included."""
    for name in MASKS:
        mask, seen = _generate(name)
        exact(
            seen[0],
            pe.positions_from_mask(mask.numpy()),
            convention="position ids of a padded batch (padded slots)",
            function="generate: _prepare_position_ids_for_generation",
            library=LIB,
        )


def check_generate_right_padded_decode() -> None:
    """transformers 5.x gives each new token the last id plus 1: a right-padded row's last id is a
    padded slot's, so its new tokens restart from there (4.x counted the real tokens before them)."""
    mask, seen = _generate("right-padded")
    last = pe.positions_from_mask(mask.numpy())[:, -1]
    for offset, step in enumerate(seen[1:], start=1):
        exact(
            step[:, -1],
            last + offset,
            convention="decode step ids, right padding: last id + 1",
            function="generate: _update_model_kwargs_for_generation",
            library=LIB,
        )


def check_llama_cached_decode() -> None:
    """A tiny random LlamaForCausalLM: prefill + cached decode steps give its full pass's logits, and the
    course's decoder (prefill, decode_step) gives LlamaAttention's outputs with a DynamicCache."""
    from transformers import DynamicCache

    model = tiny_llama(seed=1).to(torch.float64)
    ids = torch.randint(3, 61, (2, 9), generator=torch.Generator().manual_seed(7))
    with torch.no_grad():
        full = model(input_ids=ids).logits
        cache = DynamicCache(config=model.config)
        parts = [model(input_ids=ids[:, :6], cache=cache, use_cache=True).logits]
        for t in range(6, 9):
            parts.append(model(input_ids=ids[:, t : t + 1], cache=cache, use_cache=True).logits)
    stepped = torch.cat(parts, dim=1)
    # RMSNorm and RoPE run in float32 even in a float64 model: 64 float32 roundings of the largest logit
    check(
        stepped,
        to_numpy(full),
        64 * EPS32 * float(full.abs().max()),
        convention="KV cache: prefill + decode = one full pass",
        function="LlamaForCausalLM with DynamicCache",
        library=LIB,
    )
    _check_course_decoder()


def _check_course_decoder() -> None:
    """pe_utils' decoder (RoPE, concatenated, per-head weights) beside LlamaAttention: same weights, same
    positions (left-padded batch), o_proj the identity, as many key heads as query heads."""
    from transformers import DynamicCache
    from transformers.masking_utils import create_causal_mask

    n_heads, d_head, d_model, base = 2, 8, 16, 1e4
    config = LlamaConfig(
        hidden_size=d_model,
        num_attention_heads=n_heads,
        num_key_value_heads=n_heads,
        head_dim=d_head,
        intermediate_size=32,
        num_hidden_layers=1,
        vocab_size=8,
        max_position_embeddings=64,
        rope_parameters={"rope_type": "default", "rope_theta": base},
        attn_implementation="eager",
    )
    attention = llama.LlamaAttention(config, layer_idx=0).to(torch.float64).eval()
    weights = pe.decoder_weights(d_model, n_heads, d_head, seed=3)
    with torch.no_grad():
        for proj, w in (
            (attention.q_proj, weights.W_q),
            (attention.k_proj, weights.W_k),
            (attention.v_proj, weights.W_v),
        ):
            proj.weight.copy_(torch.tensor(np.concatenate(list(w), axis=1).T))
        attention.o_proj.weight.copy_(torch.eye(n_heads * d_head, d_model, dtype=torch.float64))
    rng = np.random.default_rng(RNG_SEED + 4)
    mask = np.array([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]])
    X = rng.normal(size=(2, 5, d_model))
    new = rng.normal(size=(2, 2, d_model))
    positions = np.where(mask == 1, np.cumsum(mask, axis=1) - 1, 0)
    outputs, pe_cache = pe.prefill(
        X, weights, positions, attention_mask=mask, base=base, layout="concatenated"
    )
    cache = DynamicCache(config=config)
    omega = torch.tensor(pe.rope_frequencies(d_head, base=base))

    def tables(pos):
        theta = torch.tensor(pos, dtype=torch.float64)[..., None] * omega
        return torch.cat([theta.cos()] * 2, -1), torch.cat([theta.sin()] * 2, -1)

    def run(hidden, pos, full_mask, past):
        embeds = torch.tensor(hidden)
        causal = create_causal_mask(
            config=config,
            inputs_embeds=embeds,
            attention_mask=torch.tensor(full_mask),
            cache=past,
            position_ids=torch.tensor(pos),
        )
        with torch.no_grad():
            out, _ = attention(embeds, position_embeddings=tables(pos), attention_mask=causal, cache=past)
        return out

    names = dict(
        convention="KV cache: the course's decoder beside LlamaAttention",
        function="LlamaAttention + DynamicCache (eager, float64)",
        library=LIB,
    )
    got = run(X, positions, mask, cache)
    real = mask == 1
    # eager attention takes its softmax in float32: each weight off by a few float32 roundings, so an
    # output by at most 4·(number of keys)·2⁻²⁴·max|v|
    values = float(np.abs(pe_cache.values).max())
    check(to_numpy(got)[real], outputs[real], 4 * 8 * EPS32 * values, **names)
    grown = mask
    for t in range(new.shape[1]):
        grown = np.concatenate([grown, np.ones((2, 1), dtype=grown.dtype)], axis=1)
        position = (np.cumsum(grown, axis=1) - 1)[:, -1]
        out, pe_cache = pe.decode_step(
            new[:, t], weights, position, pe_cache, base=base, layout="concatenated"
        )
        got = run(new[:, t : t + 1], position[:, None], grown, cache)
        check(got[:, 0], out, 4 * 8 * EPS32 * values, **names)
    keys = (
        torch.cat([layer.keys for layer in cache.layers]) if hasattr(cache, "layers") else cache.key_cache[0]
    )
    check(to_numpy(keys)[:, :, 2:], pe_cache.keys[:, :, 2:], 1e-12, **names)


def check_packing() -> None:
    """Packed documents: ``packed_positions`` restart at 0 in each document; transformers' eager causal mask
    built from those position ids (``find_packed_sequence_indices``) is ``block_causal_mask``, and the
    flash-attention path's ``cu_seqlens`` (``prepare_fa_kwargs_from_position_ids``) are the cumulative
    lengths."""
    from transformers.masking_utils import create_causal_mask
    from transformers.modeling_flash_attention_utils import prepare_fa_kwargs_from_position_ids

    config = LlamaConfig(
        hidden_size=8,
        num_attention_heads=2,
        head_dim=4,
        num_hidden_layers=1,
        vocab_size=8,
        attn_implementation="eager",
    )
    for lengths in ((3, 2), (1, 4, 1, 2), (5,), (2, 2, 2, 2, 2)):
        positions = pe.packed_positions(lengths)
        n = positions.size
        mask = create_causal_mask(
            config=config,
            inputs_embeds=torch.zeros(1, n, 8),
            attention_mask=None,
            cache=None,
            position_ids=torch.tensor(positions)[None],
            allow_is_causal_skip=False,
        )
        allowed = to_numpy(mask[0, 0]) == 0  # eager: 0 where allowed, the dtype's minimum elsewhere
        names = dict(convention="packing: positions restart per document, block-causal mask", library=LIB)
        exact(
            allowed.astype(float),
            pe.block_causal_mask(lengths).astype(float),
            function="create_causal_mask (packed position_ids, eager)",
            **names,
        )
        (cu_seqlens, _), _ = prepare_fa_kwargs_from_position_ids(torch.tensor(positions)[None])
        exact(
            cu_seqlens,
            np.concatenate([[0], np.cumsum(lengths)]),
            function="prepare_fa_kwargs_from_position_ids (cu_seqlens)",
            **names,
        )
    # Reset ids with an all-ones 2-D mask (notebook 11 §3): eager and SDPA never read the ids (eager
    # builds the plain causal mask, SDPA returns None for is_causal); flash-attention 2's
    # flash_attention_mask drops the mask, so _flash_attention_forward reads the ids.
    from transformers.modeling_flash_attention_utils import _is_packed_sequence

    ids = torch.tensor(pe.packed_positions((4, 3, 5)))[None]
    made = {}
    for path in ("eager", "sdpa", "flash_attention_2"):
        config._attn_implementation = path
        made[path] = create_causal_mask(
            config=config,
            inputs_embeds=torch.zeros(1, 12, 8),
            attention_mask=torch.ones_like(ids),
            cache=None,
            position_ids=ids,
        )
    names = dict(convention="packing: reset ids with an all-ones mask", library=LIB)
    exact(
        (to_numpy(made["eager"][0, 0]) == 0).astype(float),
        np.tril(np.ones((12, 12))),
        function="create_causal_mask (all-ones mask, eager): plain causal",
        **names,
    )
    assert made["sdpa"] is None, "SDPA with an all-ones mask: expected None (is_causal)"
    assert made["flash_attention_2"] is None, "flash_attention_mask keeps an all-ones mask"
    assert bool(_is_packed_sequence(ids, 1)), "_is_packed_sequence does not see the reset ids"
    # flash_attention_mask keeps an all-ones mask shorter than the keys (a StaticCache's length).
    from transformers.masking_utils import flash_attention_mask

    kept = flash_attention_mask(1, 12, 16, attention_mask=torch.ones(1, 12, dtype=torch.bool))
    assert kept is not None, "flash_attention_mask dropped an all-ones mask shorter than the keys"
    # With a cache (eager, SDPA) no packing detection: a plain forward takes use_cache=True from the
    # config, builds a DynamicCache and leaks; use_cache=False finds the documents (notebook 11 §3).
    names = dict(convention="packing: reset ids, no mask, the config's cache", library=LIB)
    torch.manual_seed(RNG_SEED)
    tokens = torch.randint(0, 8, (1, 12))
    for path in ("eager", "sdpa"):
        config._attn_implementation = path
        model = llama.LlamaModel(config).double().train()
        assert model.config.use_cache, "LlamaConfig().use_cache is no longer True"
        with torch.no_grad():
            alone = torch.cat(
                [model(input_ids=t, use_cache=False).last_hidden_state for t in tokens.split([4, 3, 5], 1)], 1
            )
            default = model(input_ids=tokens, position_ids=ids).last_hidden_state
            no_cache = model(input_ids=tokens, position_ids=ids, use_cache=False).last_hidden_state
        function = f"LlamaModel ({path}, use_cache=False)"
        check(to_numpy(no_cache), to_numpy(alone), 1e-12, function=function, **names)
        leak = (default - alone).abs()[0, 4:].max().item()
        assert leak > 1e-3, f"{path}: a plain forward (config use_cache) did not leak across documents"


# --- M-RoPE ------------------------------------------------------------------------------------------


def check_mrope() -> None:
    """Qwen2-VL's rotary module (3 position axes, mrope_section) + apply_rotary_pos_emb is
    ``rope_nd(..., mrope_frequencies(d, section), layout="concatenated")``; its default base is 1e6."""
    rng = np.random.default_rng(RNG_SEED + 5)
    exact(
        Qwen2VLTextConfig().rope_parameters["rope_theta"],
        1e6,
        convention="M-RoPE default base (rope_theta)",
        function="Qwen2VLTextConfig",
        library=LIB,
    )
    for d, section in ((8, [2, 1, 1]), (64, [8, 12, 12]), (128, [16, 24, 24]), (128, [32, 16, 16])):
        config = Qwen2VLTextConfig(
            hidden_size=2 * d,
            num_attention_heads=2,
            head_dim=d,
            rope_parameters={"rope_type": "default", "rope_theta": 1e6, "mrope_section": section},
        )
        rotary = qwen2_vl.Qwen2VLRotaryEmbedding(config)
        positions = rng.integers(0, 3000, size=(3, 2, 6))  # (t, h, w) per token
        x = _rows(rng, 2, 2, 6, d)
        matrix = pe.mrope_frequencies(d, section)
        expected = pe.rope_nd(x, np.moveaxis(positions, 0, -1)[:, None], matrix, layout="concatenated")
        phase = np.einsum("abn,ai->bni", positions, matrix)
        omega = matrix.max(axis=0)
        names = dict(convention="M-RoPE (Qwen2-VL): sections of pairs per axis t, h, w", library=LIB)
        for eps, label in ((EPS64, "float64"), (EPS32, "float32")):
            if eps == EPS64:
                rotary.inv_freq = float64_variant(
                    qwen2_vl.Qwen2VLRotaryEmbedding.compute_default_rope_parameters
                )(config)[0]
                forward = float64_variant(qwen2_vl.Qwen2VLRotaryEmbedding.forward).__get__(rotary)
                q = torch.tensor(x)
            else:
                forward = qwen2_vl.Qwen2VLRotaryEmbedding(config)
                q = torch.tensor(x, dtype=torch.float32)
            cos, sin = forward(q, torch.tensor(positions))
            got, _ = qwen2_vl.apply_rotary_pos_emb(q, q, cos, sin)
            bound = columns(angle_bound(phase, np.broadcast_to(omega, phase.shape), eps), "concatenated", d)
            bound = bound[:, None] * pair_magnitude(x, "concatenated") + 4 * eps * np.abs(x)
            check(
                got,
                expected,
                bound,
                function=f"Qwen2VLRotaryEmbedding + apply_rotary_pos_emb ({label})",
                **names,
            )
    # Qwen2VLModel.compute_3d_position_ids (notebook 12): from inputs_embeds alone, with an image and no
    # stored rope_deltas, it returns None (the text model then uses 1-D ids); with input_ids and no
    # mm_token_type_ids it raises.
    from types import SimpleNamespace

    fresh = SimpleNamespace(rope_deltas=None)
    grid = torch.tensor([[1, 4, 4]])
    embeds = torch.zeros(1, 7, 8)
    got = qwen2_vl.Qwen2VLModel.compute_3d_position_ids(fresh, None, embeds, image_grid_thw=grid)
    assert got is None, "compute_3d_position_ids now builds ids from inputs_embeds alone"
    try:
        qwen2_vl.Qwen2VLModel.compute_3d_position_ids(
            fresh, torch.zeros(1, 7, dtype=torch.long), embeds, image_grid_thw=grid
        )
    except ValueError as error:
        assert "mm_token_type_ids" in str(error)
    else:
        raise AssertionError("compute_3d_position_ids without mm_token_type_ids did not raise")


def check_mrope_interleaved() -> None:
    """Qwen3-VL's rotary module interleaves the axes t, h, w, t, h, w, ...: ``mrope_frequencies(...,
    interleaved=True)``."""
    from transformers.models.qwen3_vl import modeling_qwen3_vl as qwen3_vl
    from transformers.models.qwen3_vl.configuration_qwen3_vl import Qwen3VLTextConfig

    rng = np.random.default_rng(RNG_SEED + 6)
    for d, section in ((16, [4, 2, 2]), (64, [12, 10, 10]), (128, [24, 20, 20])):
        config = Qwen3VLTextConfig(
            hidden_size=2 * d,
            num_attention_heads=2,
            head_dim=d,
            rope_parameters={"rope_type": "default", "rope_theta": 5e6, "mrope_section": section},
        )
        rotary = qwen3_vl.Qwen3VLTextRotaryEmbedding(config)
        positions = rng.integers(0, 3000, size=(3, 2, 6))
        x = _rows(rng, 2, 2, 6, d)
        matrix = pe.mrope_frequencies(d, section, base=5e6, interleaved=True)
        expected = pe.rope_nd(x, np.moveaxis(positions, 0, -1)[:, None], matrix, layout="concatenated")
        q = torch.tensor(x, dtype=torch.float32)
        cos, sin = rotary(q, torch.tensor(positions))
        got, _ = qwen3_vl.apply_rotary_pos_emb(q, q, cos, sin)
        phase = np.einsum("abn,ai->bni", positions, matrix)
        omega = matrix.max(axis=0)
        bound = columns(angle_bound(phase, np.broadcast_to(omega, phase.shape), EPS32), "concatenated", d)
        bound = bound[:, None] * pair_magnitude(x, "concatenated") + 4 * EPS32 * np.abs(x)
        check(
            got,
            expected,
            bound,
            convention="M-RoPE (Qwen3-VL): axes interleaved t, h, w, t, h, w",
            function="Qwen3VLTextRotaryEmbedding + apply_rotary_pos_emb (float32)",
            library=LIB,
        )
        # mrope_interleaved is tolerated by validation, not read: False changes nothing (notebook 12).
        assert "mrope_interleaved" in Qwen3VLTextConfig.ignore_keys_at_rope_validation
        flagged = dict(config.rope_parameters, mrope_interleaved=False)
        config_off = Qwen3VLTextConfig(
            hidden_size=2 * d, num_attention_heads=2, head_dim=d, rope_parameters=flagged
        )
        cos_off, sin_off = qwen3_vl.Qwen3VLTextRotaryEmbedding(config_off)(q, torch.tensor(positions))
        assert torch.equal(cos_off, cos) and torch.equal(sin_off, sin), "mrope_interleaved=False is now read"


# --- sinusoidal tables -------------------------------------------------------------------------------

SIZES = ((16, 8), (50, 64), (128, 512))


def check_distilbert() -> None:
    from transformers.models.distilbert.modeling_distilbert import _create_sinusoidal_embeddings

    for n, d in SIZES:
        out = _create_sinusoidal_embeddings(n, d, torch.empty(n, d))
        expected = pe.convention_table("vaswani2017", n, d)
        theta = np.outer(np.arange(n), pe.frequencies(d)).repeat(2, axis=1)
        # float64 angles (NumPy), stored in float32: one rounding of half an ulp ≤ 2⁻²⁴
        bound = EPS32 + angle_bound(theta, 1.0, EPS64)
        check(
            out,
            expected,
            bound,
            convention="sinusoidal table: interleaved, base^(-2i/d) (vaswani2017)",
            function="distilbert create_sinusoidal_embeddings",
            library=LIB,
        )
        check(
            out,
            pe.encode_positions(np.arange(n), d),
            bound,
            convention="sinusoidal table: interleaved, base^(-2i/d) (vaswani2017)",
            function="distilbert create_sinusoidal_embeddings",
            library=LIB,
        )


def check_marian() -> None:
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding

    for n, d in SIZES:
        out = MarianSinusoidalPositionalEmbedding(n, d).create_weight()
        theta = np.outer(np.arange(n), pe.frequencies(d))
        bound = EPS32 + np.tile(angle_bound(theta, 1.0, EPS64), 2)
        check(
            out,
            pe.convention_table("marian", n, d),
            bound,
            convention="sinusoidal table: [sin | cos], base^(-2i/d) (marian)",
            function="MarianSinusoidalPositionalEmbedding.create_weight",
            library=LIB,
        )


def _tensor2tensor_bound(n, d, eps):
    omega = pe.frequencies_variant(d, denominator="d/2-1")
    theta = np.outer(np.arange(n), omega)
    return np.tile(angle_bound(theta, np.broadcast_to(omega, theta.shape), eps), 2)


def check_whisper() -> None:
    from transformers.models.whisper.modeling_whisper import sinusoids

    for n, d in SIZES:
        default = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)
        try:
            out64 = sinusoids(n, d)
        finally:
            torch.set_default_dtype(default)
        names = dict(
            convention="sinusoidal table: [sin | cos], base^(-i/(d/2-1)) (tensor2tensor)", library=LIB
        )
        check(
            out64,
            pe.convention_table("tensor2tensor", n, d),
            _tensor2tensor_bound(n, d, EPS64),
            function="whisper sinusoids (float64)",
            **names,
        )
        check(
            sinusoids(n, d),
            pe.convention_table("tensor2tensor", n, d),
            _tensor2tensor_bound(n, d, EPS32),
            function="whisper sinusoids (float32)",
            **names,
        )


def _check_fairseq(cls, name: str) -> None:
    for n, d in SIZES:
        table = cls.get_embedding(n + 2, d, padding_idx=1)
        names = dict(convention="fairseq: [sin | cos], d/2-1, tokens from padding_idx + 1 = 2", library=LIB)
        exact(table[1], np.zeros(d), function=f"{name}.get_embedding (padding row)", **names)
        check(
            table[2:],
            pe.convention_table("fairseq", n, d),
            np.tile(_fairseq_bound(n, d), 1),
            function=f"{name}.get_embedding",
            **names,
        )
    # forward on left-padded ids: the r-th real token of a row reads row r + 2, the table's row r
    module = cls(num_positions=32, embedding_dim=16, padding_idx=1)
    ids = torch.tensor([[1, 1, 5, 6, 7], [5, 6, 7, 8, 9], [1, 1, 1, 1, 4]])
    out = module(ids)
    mask = (ids != 1).numpy()
    table = pe.convention_table("fairseq", 5, 16)
    rank = np.cumsum(mask, axis=1) - 1
    expected = np.where(mask[..., None], table[np.maximum(rank, 0)], 0.0)
    check(
        out,
        expected,
        _fairseq_bound(5, 16)[np.maximum(rank, 0)],
        convention="fairseq: [sin | cos], d/2-1, tokens from padding_idx + 1 = 2",
        function=f"{name}.forward (left-padded ids)",
        library=LIB,
    )


def _fairseq_bound(n, d):
    omega = pe.frequencies_variant(d, denominator="d/2-1")
    theta = np.outer(np.arange(2, n + 2), omega)
    return np.tile(angle_bound(theta, np.broadcast_to(omega, theta.shape), EPS32), 2)


def check_speech2text() -> None:
    from transformers.models.speech_to_text.modeling_speech_to_text import (
        Speech2TextSinusoidalPositionalEmbedding,
    )

    _check_fairseq(Speech2TextSinusoidalPositionalEmbedding, "Speech2TextSinusoidalPositionalEmbedding")


def check_m2m100() -> None:
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding

    _check_fairseq(M2M100SinusoidalPositionalEmbedding, "M2M100SinusoidalPositionalEmbedding")


def check_rosetta_text() -> None:
    """The Rosetta stone's text rows are the library tables: vaswani2017 (DistilBERT), marian (Marian),
    tensor2tensor (Whisper, float64)."""
    from transformers.models.distilbert.modeling_distilbert import _create_sinusoidal_embeddings
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding
    from transformers.models.whisper.modeling_whisper import sinusoids

    for n, d in SIZES:
        positions = np.arange(n, dtype=np.float64)
        theta = np.outer(positions, pe.frequencies(d))
        stored = EPS32 + np.tile(angle_bound(theta, 1.0, EPS64), 2)
        check(
            _create_sinusoidal_embeddings(n, d, torch.empty(n, d)),
            pe.rosetta_encoding("vaswani2017", positions, d),
            stored,
            convention="Rosetta stone: vaswani2017",
            function="distilbert create_sinusoidal_embeddings",
            library=LIB,
        )
        check(
            MarianSinusoidalPositionalEmbedding(n, d).create_weight(),
            pe.rosetta_encoding("marian", positions, d),
            stored,
            convention="Rosetta stone: marian",
            function="MarianSinusoidalPositionalEmbedding",
            library=LIB,
        )
        default = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)
        try:
            table = sinusoids(n, d)
        finally:
            torch.set_default_dtype(default)
        check(
            table,
            pe.rosetta_encoding("tensor2tensor", positions, d),
            _tensor2tensor_bound(n, d, EPS64),
            convention="Rosetta stone: tensor2tensor",
            function="whisper sinusoids (float64)",
            library=LIB,
        )


def check_detect_convention() -> None:
    """``detect_convention`` names each library table."""
    from transformers.models.distilbert.modeling_distilbert import _create_sinusoidal_embeddings
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding
    from transformers.models.whisper.modeling_whisper import sinusoids

    n, d = 32, 16
    tables = {
        "vaswani2017": _create_sinusoidal_embeddings(n, d, torch.empty(n, d)),
        "marian": MarianSinusoidalPositionalEmbedding(n, d).create_weight(),
        "tensor2tensor": sinusoids(n, d),
    }
    for name, table in tables.items():
        found = pe.detect_convention(to_numpy(table))
        found = found if isinstance(found, tuple) else (found,)
        exact(
            float(name in found),
            1.0,
            convention="detect_convention names the library's table",
            function=f"detect_convention on {name}",
            library=LIB,
        )


# --- ALiBi, bfloat16 ---------------------------------------------------------------------------------


def check_alibi() -> None:
    from transformers.models.bloom.modeling_bloom import _get_alibi_slopes, build_alibi_tensor

    for heads in range(1, 65):
        slopes = _get_alibi_slopes(heads, torch.device("cpu"))
        expected = pe.alibi_slopes(heads)
        power = np.abs(np.log2(expected)) * heads  # the exponent applied to a float32-rounded base
        check(
            slopes,
            expected,
            EPS32 * (power + 4) * expected,
            convention="ALiBi slopes, 1-64 heads",
            function="bloom _get_alibi_slopes",
            library=LIB,
        )
    mask_array = np.array([[0, 1, 1, 1], [1, 1, 1, 1]])
    alibi = build_alibi_tensor(torch.tensor(mask_array), 4, torch.float32).view(2, 4, 4)
    mask = mask_array
    expected = pe.alibi_slopes(4)[None, :, None] * np.where(mask == 1, np.cumsum(mask, 1) - 1, 0)[:, None, :]
    check(
        alibi,
        expected,
        4 * EPS32 * np.abs(expected),
        convention="ALiBi slopes, 1-64 heads",
        function="bloom build_alibi_tensor",
        library=LIB,
    )


def check_bfloat16_inv_freq() -> None:
    """``model.to(torch.bfloat16)`` casts the rotary buffer ``inv_freq``: it becomes
    ``round_to_bfloat16`` of the float32 frequencies (notebook 08's bug met in practice)."""
    for d, base in ((128, 5e5), (128, 1e4), (64, 1e4)):
        model = tiny_llama(
            hidden_size=2 * d,
            num_attention_heads=2,
            num_key_value_heads=2,
            head_dim=d,
            num_hidden_layers=1,
            rope_parameters={"rope_type": "default", "rope_theta": base},
        )
        float32 = model.model.rotary_emb.inv_freq.clone()
        model.to(torch.bfloat16)
        cast = model.model.rotary_emb.inv_freq
        assert cast.dtype == torch.bfloat16, f"inv_freq stayed {cast.dtype}"
        exact(
            cast,
            pe.round_to_bfloat16(to_numpy(float32)),
            convention="model.to(bfloat16) rounds inv_freq",
            function="LlamaRotaryEmbedding.inv_freq after .to(torch.bfloat16)",
            library=LIB,
        )


CHECKS = {
    name[len("check_") :]: function
    for name, function in sorted(globals().items())
    if name.startswith("check_") and callable(function)
}
