"""Rotary position embedding, RoPE (notebook 08).

Instead of adding ``PE(p)`` to the token vector, RoPE rotates the query and
the key of the token at position ``p``, pair by pair, by the angles
``θ_i = p ω_i``. With the rotation of the libraries (RoFormer, GPT-J, Meta's
Llama, GPT-NeoX, Hugging Face)::

    R(θ) = [[cos θ, −sin θ],
            [sin θ,  cos θ]]          (counter-clockwise),

``R_p`` the block-diagonal matrix of the blocks ``R(p ω_i)``, and
``R_pᵀ R_q = R_{q−p}``::

    (R_p a)·(R_q b) = a·R_{q−p} b,

so the attention score of two rotated vectors depends on the positions only
through the offset ``k = q − p``.

Relation to notebook 04: ``T_k`` acts on ``(sin, cos)`` pairs with blocks
``[[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]] = R(kω_i)ᵀ``, so
``R_p = T_pᵀ = T_{−p}`` (in either layout, with ``shift_matrix``'s layout).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import check_base, check_finite_array, check_layout, check_rows, check_table_size
from .context import rope_frequencies


def rope(
    x: Any,
    positions: Any,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    scaling: Any = None,
) -> np.ndarray:
    """Rotate each row of ``x`` by ``R_p = T_{−p}``, where ``p`` is that row's position.

    Pair ``i`` is made of dimensions ``(2i, 2i+1)`` for
    ``layout="interleaved"`` (RoFormer, GPT-J, Meta's Llama reference) and of
    ``(i, i + d/2)`` for ``layout="concatenated"`` (GPT-NeoX and Hugging Face
    ``rotate_half``). Writing ``(u, v)`` for the two entries of pair ``i`` and
    ``θ = p ω_i``, the rotation is counter-clockwise::

        u' = cos θ · u − sin θ · v
        v' = sin θ · u + cos θ · v

    that is ``R(θ) = [[cos θ, −sin θ], [sin θ, cos θ]]``, the transpose of the
    block of notebook 04's ``T_p``. Hence each row ``x_r`` becomes
    ``T_pᵀ x_r = T_{−p} x_r``; for a 2-D ``x``,
    ``rope(x, p, layout=L) == x @ shift_matrix(p, d, layout=L)``. And

        ``rope(a, p) · rope(b, q) == a · R_{q−p} b == a · T_{p−q} b``,

    a function of ``q − p`` alone. (Rotating by ``T_p`` instead, the opposite
    turn, would give ``a · R_{p−q} b``: the offset with its sign flipped.) The frequencies ``ω_i`` are
    ``pe_utils.context.rope_frequencies(d, base=base, scaling=scaling)``:
    ``base^(−2i/d)`` for ``scaling=None``. Introduced in notebook 08.

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
    scaling : None or dict
        A context-extension rule, passed to ``rope_frequencies`` (notebook 09).

    Returns
    -------
    np.ndarray
        Float64 array of the shape of ``x``.
    """
    x, d_model = check_rows(x, "x")
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

    omega = rope_frequencies(d_model, base=base, scaling=scaling)
    angles = np.multiply.outer(positions, omega)  # float64 angles: the safe recipe
    cos, sin = np.cos(angles), np.sin(angles)
    half = d_model // 2
    if layout == "interleaved":
        first, second = slice(0, None, 2), slice(1, None, 2)
    else:
        first, second = slice(0, half), slice(half, None)
    u, v = x[..., first], x[..., second]
    out = np.empty(x.shape)
    out[..., first] = cos * u - sin * v
    out[..., second] = sin * u + cos * v
    return out
