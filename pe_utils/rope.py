"""Rotary position embedding, RoPE (notebook 07).

Instead of adding ``PE(p)`` to the token vector, RoPE rotates the query and
the key of the token at position ``p`` by ``T_p``, the rotation of notebook 04.
Because ``T_pᵀ T_q = T_{q−p}``::

    (T_p a)·(T_q b) = a·T_{q−p} b,

so the attention score of two rotated vectors depends on the positions only
through the offset ``k = q − p``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import check_base, check_finite_array, check_layout, check_rows, check_table_size
from .rotation import shift


def rope(
    x: Any,
    positions: Any,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
) -> np.ndarray:
    """Rotate each row of ``x`` by ``T_p``, where ``p`` is that row's position.

    For pair ``i`` of a row at position ``p``, with ``θ = p ω_i`` and
    ``ω_i = base^(−2i/d)``::

        out[2i]   =  cos θ · x[2i] + sin θ · x[2i+1]
        out[2i+1] = −sin θ · x[2i] + cos θ · x[2i+1]

    so ``rope(x, p) == x @ shift_matrix(p, d).T`` row by row, and
    ``rope(a, p) · rope(b, q) == a · T_{q−p} b``. With
    ``layout="concatenated"`` pair ``i`` is made of dimensions ``i`` and
    ``i + d/2`` instead. Introduced in notebook 07.

    Parameters
    ----------
    x : array, shape (..., d)
        Query or key vectors, one per row; ``d`` is positive and even.
    positions : array_like of float
        One finite position per row: shape ``x.shape[:-1]``, or any shape that
        broadcasts to it (for example ``(n,)`` for ``x`` of shape ``(h, n, d)``).
    base : float
        Greater than 1.
    layout : {"interleaved", "concatenated"}

    Returns
    -------
    np.ndarray
        Float64 array of the shape of ``x``.
    """
    x, _ = check_rows(x, "x")
    positions = check_finite_array(positions, "positions")
    base = check_base(base)
    layout = check_layout(layout)
    rows_shape = x.shape[:-1]
    try:
        fits = np.broadcast_shapes(rows_shape, positions.shape) == rows_shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"positions of shape {positions.shape} do not match x of shape {x.shape}: "
            f"expected one position per row of x, shape {rows_shape} (or broadcastable to it)"
        )
    check_table_size(x.shape, np.float64, name="rotated rows")
    return shift(x, positions, base=base, layout=layout)
