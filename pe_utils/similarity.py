"""The dot-product identity (notebook 05).

``PE(p)·PE(q) = Σ_i [sin pω_i sin qω_i + cos pω_i cos qω_i] = Σ_i cos((q−p) ω_i)``:
the dot product of two encodings depends only on the offset ``k = q − p``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import check_base, check_d_model, check_finite_array, check_table_size
from .encoding import frequencies


def similarity_profile(offsets: Any, d_model: int, *, base: float = 10000.0) -> np.ndarray:
    """Return ``f(k) = Σ_i cos(k ω_i)`` for each offset ``k``.

    ``f(q − p) = PE(p)·PE(q)`` for every ``p`` and ``q``; ``f(0) = d/2``,
    ``f(−k) = f(k)``, and ``f`` is *not* monotonic in ``|k|``. Computed offset by
    offset, without any ``n × n`` matrix. Introduced in notebook 05.

    Parameters
    ----------
    offsets : array_like of float
        Any shape; every entry finite.
    d_model : int
        Positive and even.
    base : float
        Greater than 1.

    Returns
    -------
    np.ndarray
        Float64 array of the shape of ``offsets``.
    """
    offsets = check_finite_array(offsets, "offsets")
    d_model = check_d_model(d_model)
    base = check_base(base)
    omega = frequencies(d_model, base)
    flat = offsets.reshape(-1)
    # Work in chunks so that the (offsets × pairs) angle grid stays small.
    chunk = max(1, 2**22 // omega.size)
    check_table_size((min(chunk, flat.size), omega.size), np.float64, name="angle grid")
    profile = np.empty(flat.size)
    for start in range(0, flat.size, chunk):
        angles = np.multiply.outer(flat[start : start + chunk], omega)
        profile[start : start + chunk] = np.cos(angles).sum(axis=-1)
    return profile.reshape(offsets.shape)
