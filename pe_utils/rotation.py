"""Shifting is rotating (notebook 04).

From the angle-addition identities, for each pair ``i`` with ``θ = k ω_i``::

    [sin((p+k)ω_i), cos((p+k)ω_i)] = R(θ) [sin(p ω_i), cos(p ω_i)],
    R(θ) = [[cos θ, sin θ], [−sin θ, cos θ]].

``T_k`` stacks these 2×2 blocks on the diagonal, so ``PE(p+k) = T_k PE(p)``
for every ``p``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import (
    check_base,
    check_d_model,
    check_finite_array,
    check_layout,
    check_rows,
    check_scalar,
    check_table_size,
)
from .encoding import _columns, frequencies, layout_permutation


def shift_matrix(
    k: float,
    d_model: int,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
) -> np.ndarray:
    """Return ``T_k``, the ``d × d`` rotation with ``PE(p+k) = T_k @ PE(p)``.

    Block ``i`` (rows and columns ``2i, 2i+1``) is
    ``[[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]]``. ``T_k`` depends on ``k``
    alone, is orthogonal, ``T_a T_b = T_{a+b}``, ``T_{−k} = T_kᵀ`` and
    ``T_0 = I``. For ``layout="concatenated"`` it is the same matrix with rows
    and columns permuted by ``layout_permutation``. Introduced in notebook 04.
    """
    k_value = check_scalar(k, "k")
    d_model = check_d_model(d_model)
    base = check_base(base)
    layout = check_layout(layout)
    check_table_size((d_model, d_model), np.float64, name="shift matrix")
    angles = k_value * frequencies(d_model, base)
    cos, sin = np.cos(angles), np.sin(angles)
    matrix = np.zeros((d_model, d_model))
    even = np.arange(0, d_model, 2)
    matrix[even, even] = cos
    matrix[even, even + 1] = sin
    matrix[even + 1, even] = -sin
    matrix[even + 1, even + 1] = cos
    if layout == "concatenated":
        order = layout_permutation(d_model)
        matrix = matrix[np.ix_(order, order)]
    return matrix


def shift(
    rows: Any,
    k: Any,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
) -> np.ndarray:
    """Apply ``T_k`` to each row, pair by pair, without building ``T_k``.

    ``shift(PE(p), k) = PE(p + k)``; costs ``O(d)`` per row instead of
    ``O(d²)``. Introduced in notebook 04.

    Parameters
    ----------
    rows : array, shape (..., d)
        Vectors in the given layout; ``d`` is read from the last axis.
    k : float or array broadcastable to ``rows.shape[:-1]``
        The offset for each row.

    Returns
    -------
    np.ndarray
        Float64 array of the broadcast shape ``(..., d)``.
    """
    rows, d_model = check_rows(rows, "rows")
    offsets = check_finite_array(k, "k")
    base = check_base(base)
    layout = check_layout(layout)
    try:
        batch_shape = np.broadcast_shapes(rows.shape[:-1], offsets.shape)
    except ValueError as error:
        raise ValueError(
            f"k of shape {offsets.shape} does not broadcast against rows of shape {rows.shape[:-1]} "
            "(one offset per row, or a single offset)"
        ) from error
    check_table_size(batch_shape + (d_model,), np.float64, name="shifted rows")
    angles = np.multiply.outer(offsets, frequencies(d_model, base))
    cos, sin = np.cos(angles), np.sin(angles)
    sine_cols, cosine_cols = _columns(layout, d_model // 2)
    sines, cosines = rows[..., sine_cols], rows[..., cosine_cols]
    out = np.empty(batch_shape + (d_model,))
    out[..., sine_cols] = cos * sines + sin * cosines
    out[..., cosine_cols] = -sin * sines + cos * cosines
    return out
