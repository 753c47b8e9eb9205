"""What notebook 08 says about torch and transformers' float32 ``inv_freq``, held to the installed release.

Notebook 08 §4 emulates the libraries' float32 ``inv_freq`` in NumPy and says that, at d = 128 and
base 500000, the emulation is torch's buffer bit for bit; that the forward forms each angle as one
float32 product; and which loading path rounds the buffer to bfloat16 (``model.to``) and which keeps
it in float32 (``from_pretrained(..., dtype=torch.bfloat16)``). Each test fails if the installed
release does otherwise, or if the notebook stops saying it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import checks_transformers as tf
import numpy as np
import torch

import pe_utils as pe

ROOT = Path(__file__).resolve().parents[2]
D, BASE = 128, 500000.0  # Llama 3's setting, the one notebook 08 uses


def notebook_08_text() -> str:
    path = next((ROOT / "notebooks").glob("08_*.ipynb"))
    cells = json.loads(path.read_text())["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")


def emulated_inv_freq(dim: int, base: float) -> np.ndarray:
    """Notebook 08's ``hf_inv_freq``: a correctly rounded float32 power, then float32's division."""
    exponents = np.arange(0, dim, 2).astype(np.float32) / np.float32(dim)
    power = (base ** exponents.astype(np.float64)).astype(np.float32)
    return np.float32(1.0) / power


def llama(d: int = D, base: float = BASE):
    return tf.tiny_llama(
        hidden_size=2 * d,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=d,
        num_hidden_layers=1,
        rope_parameters={"rope_type": "default", "rope_theta": base},
    )


def test_the_emulated_inv_freq_is_torchs_bit_for_bit():
    buffer = llama().model.rotary_emb.inv_freq
    assert buffer.dtype == torch.float32
    np.testing.assert_array_equal(buffer.numpy(), emulated_inv_freq(D, BASE))
    # the notebook's numbers, with torch's buffer: 18 of 64 differ from ω rounded once, and the
    # float32 angles p·inv_freq first differ from p·ω by more than 2⁻⁹ at p = 24703
    omega = pe.frequencies(D, BASE)
    assert int(np.sum(buffer.numpy() != omega.astype(np.float32))) == 18
    positions = torch.arange(1, 131073, dtype=torch.float32)
    angles = (positions[:, None] * buffer[None, :]).double().numpy()
    error = np.abs(angles - np.arange(1.0, 131073.0)[:, None] * omega).max(axis=1)
    assert int(np.argmax(error > 2.0**-9)) + 1 == 24703
    assert "this emulation is torch's `inv_freq` bit for bit" in notebook_08_text()


def test_at_base_a_million_one_of_the_64_differs_from_the_emulation():
    # notebook 08: torch's float32 pow is not always correctly rounded; at base 10^6 one of the 64
    # frequencies differs from the emulation (so another setting needs its own comparison)
    buffer = llama(D, 1e6).model.rotary_emb.inv_freq
    assert int(np.sum(buffer.numpy() != emulated_inv_freq(D, 1e6))) == 1
    assert "at base $10^6$ one of the 64 differs" in notebook_08_text()


def test_the_forward_forms_each_angle_as_one_float32_product():
    rotary = llama().model.rotary_emb
    positions = torch.tensor([[0, 1, 8191, 24703, 131071]])
    cos, sin = rotary(torch.zeros(1, dtype=torch.float32), positions)
    angles = positions[..., None].float() * rotary.inv_freq
    torch.testing.assert_close(cos, torch.cat((angles, angles), -1).cos(), rtol=0, atol=0)
    torch.testing.assert_close(sin, torch.cat((angles, angles), -1).sin(), rtol=0, atol=0)


def test_model_to_rounds_inv_freq_and_from_pretrained_keeps_it(tmp_path):
    model = llama()
    float32 = model.model.rotary_emb.inv_freq.clone()
    model.save_pretrained(tmp_path)
    loaded = type(model).from_pretrained(tmp_path, dtype=torch.bfloat16)
    assert loaded.model.layers[0].self_attn.q_proj.weight.dtype == torch.bfloat16
    kept = loaded.model.rotary_emb.inv_freq
    assert kept.dtype == torch.float32 and torch.equal(kept, float32)
    model.to(torch.bfloat16)
    cast = model.model.rotary_emb.inv_freq
    assert cast.dtype == torch.bfloat16
    np.testing.assert_array_equal(cast.double().numpy(), pe.round_to_bfloat16(float32.numpy()))
    text = re.sub(r"\s+", " ", notebook_08_text())
    assert "`model.to(torch.bfloat16)` rounds `inv_freq`" in text
    stated = (
        "`from_pretrained(…, dtype=torch.bfloat16)` loads the weights in bfloat16 "
        "and keeps `inv_freq` in float32"
    )
    assert stated in text
