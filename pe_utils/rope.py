"""Rotary position embedding, RoPE (notebook 08).

Instead of adding ``PE(p)`` to the token vector, RoPE rotates the query and
the key of the token at position ``p``, pair by pair, by the angles
``θ_i = p ω_i``. The libraries (RoFormer, GPT-J, Meta's Llama, GPT-NeoX,
Hugging Face) turn each pair by::

    R(θ)ᵀ = [[cos θ, −sin θ],
             [sin θ,  cos θ]]         (counter-clockwise for a pair read as (x, y)),

the transpose of notebook 04's block ``R(θ)`` (04 stores a pair as
``(sin, cos) = (y, x)``; swapping a pair's entries transposes a 2×2 rotation).
With ``R_p`` the block-diagonal matrix of the blocks ``R(p ω_i)ᵀ``,
``R_pᵀ R_q = R_{q−p}``::

    (R_p a)·(R_q b) = a·R_{q−p} b,

so the attention score of two rotated vectors depends on the positions only
through the offset ``k = q − p``.

Relation to notebook 04: ``T_k`` acts on ``(sin, cos)`` pairs with the blocks
``R(kω_i) = [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]]``, so
``R_p = T_pᵀ = T_{−p}`` (in either layout, with ``shift_matrix``'s layout).

Partial rotary (notebook 11): many models rotate only the first ``r`` dimensions
of each head and pass the other ``d − r`` through, with the frequencies of an
``r``-dimensional RoPE, ``base^(−2i/r)``. GPT-J (``rotary_dim``) pairs them
interleaved; GPT-NeoX (``rotary_pct``: 24 of 96 per head in NeoX-20B), Phi
(``partial_rotary_factor``) and Hugging Face's default rope type pair them in
halves *within* the first ``r`` dimensions (partial half-split). Not every
convention does this: Hugging Face's "proportional" type (Gemma 4; read in release
5.23.0 only, ``_compute_proportional_rope_parameters``) takes the exponent over the
whole head and gives the other pairs frequency 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import (
    _is_integer,
    check_base,
    check_finite_array,
    check_layout,
    check_rows,
    check_table_size,
)
from .rope_scaling import rope_frequencies


def check_rotary_dims(rotary_dims: Any, size: int, size_name: str = "d_model") -> int:
    """Return ``rotary_dims`` as an int if it is even and ``2 ≤ rotary_dims ≤ size``.

    ``size_name`` names the limit in the message: ``d_model`` for :func:`rope`, ``d_head``
    for the decoder of notebook 11.
    """
    limit = f"{size_name} = {size}"
    if not _is_integer(rotary_dims):
        raise TypeError(
            f"rotary_dims must be None or an even integer from 2 to {limit}, got "
            f"{rotary_dims!r} of type {type(rotary_dims).__name__}"
        )
    rotary_dims = int(rotary_dims)
    if rotary_dims < 2 or rotary_dims > size or rotary_dims % 2:
        raise ValueError(
            f"rotary_dims must be None or an even integer from 2 to {limit} "
            f"(the dimensions rotated, in pairs), got {rotary_dims}"
        )
    return rotary_dims


def rope(
    x: Any,
    positions: Any,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    scaling: Any = None,
    rotary_dims: Any = None,
    seq_len: Any = None,
) -> np.ndarray:
    """Rotate each row of ``x`` by ``R_p = T_{−p}``, where ``p`` is that row's position.

    Pair ``i`` is made of dimensions ``(2i, 2i+1)`` for
    ``layout="interleaved"`` (RoFormer, GPT-J, Meta's Llama reference) and of
    ``(i, i + d/2)`` for ``layout="concatenated"`` (GPT-NeoX and Hugging Face
    ``rotate_half``). Writing ``(u, v)`` for the two entries of pair ``i`` and
    ``θ = p ω_i``, the rotation is counter-clockwise::

        u' = cos θ · u − sin θ · v
        v' = sin θ · u + cos θ · v

    that is ``R(θ)ᵀ = [[cos θ, −sin θ], [sin θ, cos θ]]``, the transpose of
    notebook 04's block ``R(θ)`` of ``T_p``. Hence each row ``x_r`` becomes
    ``T_pᵀ x_r = T_{−p} x_r``; for a 2-D ``x``,
    ``rope(x, p, layout=L) == x @ shift_matrix(p, d, layout=L)``. And

        ``rope(a, p) · rope(b, q) == a · R_{q−p} b == a · T_{p−q} b``,

    a function of ``q − p`` alone. (Rotating by ``T_p`` instead, the opposite
    turn, would give ``a · R_{p−q} b``: the offset with its sign flipped.) The frequencies ``ω_i`` are
    ``pe_utils.rope_scaling.rope_frequencies(d, base=base, scaling=scaling)``:
    ``base^(−2i/d)`` for ``scaling=None``. Introduced in notebook 08.

    With ``rotary_dims = r`` (partial rotary, notebook 11) only the first ``r``
    dimensions are rotated, as an ``r``-dimensional RoPE: frequencies
    ``rope_frequencies(r, …)`` (``base^(−2i/r)``), pairs ``(2i, 2i+1)`` (GPT-J) or
    ``(i, i + r/2)`` (GPT-NeoX, Phi) of those ``r`` dimensions; dimensions
    ``r … d−1`` are returned unchanged, so they carry no position.

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
    rotary_dims : int, optional
        Even, from 2 to ``d``: rotate only the first ``rotary_dims`` dimensions.
        ``None`` (the default) rotates all ``d``.
    seq_len : int, optional
        The current length, for ``scaling`` of type ``"dynamic"`` only.

    Returns
    -------
    np.ndarray
        Float64 array of the shape of ``x``.
    """
    x, d_model = check_rows(x, "x")
    positions = check_finite_array(positions, "positions")
    base = check_base(base)
    layout = check_layout(layout)
    rotated = d_model if rotary_dims is None else check_rotary_dims(rotary_dims, d_model)
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

    omega = rope_frequencies(rotated, base=base, scaling=scaling, seq_len=seq_len)
    angles = np.multiply.outer(positions, omega)  # float64 angles: the safe recipe
    cos, sin = np.cos(angles), np.sin(angles)
    half = rotated // 2
    if layout == "interleaved":  # pairs (2i, 2i+1) of the rotated dimensions
        first, second = slice(0, rotated, 2), slice(1, rotated, 2)
    else:  # pairs (i, i + r/2) within the rotated dimensions
        first, second = slice(0, half), slice(half, rotated)
    u, v = x[..., first], x[..., second]
    out = x.copy()  # dimensions r … d−1 pass through unchanged
    out[..., first] = cos * u - sin * v
    out[..., second] = sin * u + cos * v
    return out
