"""Longer contexts: RoPE frequencies after context-extension scaling (notebook 09).

Placeholder created before notebook 09 is written; its author fills it in.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .encoding import frequencies


def rope_frequencies(d_model: int, *, base: float = 10000.0, scaling: Any = None) -> np.ndarray:
    """The ``d/2`` RoPE frequencies ``ω_i``, after ``scaling`` (``None``: ``base^(−2i/d)``).

    Introduced in notebook 09.
    """
    if scaling is None:
        return frequencies(d_model, base)
    raise NotImplementedError("scaling rules are written with notebook 09")
