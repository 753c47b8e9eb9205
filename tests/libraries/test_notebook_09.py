"""What notebook 09 says about Hugging Face's YaRN at its ramp's edge, held to the installed release.

When every pair turns more than ``beta_fast`` times in L (d = 8, base 10, L = 200000), the pair index of
``beta_fast`` exceeds d − 1: Hugging Face's ramp runs backwards and divides every pair by s, while
``pe_utils.rope_frequencies`` keeps every pair, by choice. Notebook 09 states both; this fails if the
installed release does otherwise, or if the notebook stops saying it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
from _support import EPS32
from checks_transformers import _config
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

import pe_utils as pe

ROOT = Path(__file__).resolve().parents[2]


def notebook_09_text() -> str:
    path = next((ROOT / "notebooks").glob("09_*.ipynb"))
    cells = json.loads(path.read_text())["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")


def test_yarn_edge_hugging_face_divides_every_pair_pe_utils_keeps_them():
    d, base, length, factor = 8, 10.0, 200_000, 4.0
    rope = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": length}
    inv_freq, _ = ROPE_INIT_FUNCTIONS["yarn"](_config(d, base, rope, max_positions=int(factor * length)))
    omega = pe.frequencies(d, base)
    np.testing.assert_allclose(inv_freq.double().numpy(), omega / factor, rtol=16 * EPS32, atol=0)
    np.testing.assert_allclose(pe.rope_frequencies(d, base=base, scaling=rope), omega, rtol=1e-15, atol=0)
    text = re.sub(r"\s+", " ", notebook_09_text())
    assert "Hugging Face divides every pair by $s$" in text
    assert "`pe_utils` clamps `low` to $d - 1$ too and keeps every pair" in text
