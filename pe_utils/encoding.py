"""The sinusoidal formula (notebook 03).

``PE(p)[2i] = sin(p ω_i)`` and ``PE(p)[2i+1] = cos(p ω_i)`` with
``ω_i = base^(−2i/d)``: the *interleaved* layout of the paper. The
*concatenated* layout ``[sin(p ω_0) … sin(p ω_{d/2−1}), cos(p ω_0) …]``
holds the same numbers in another column order (``layout_permutation``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import (
    check_base,
    check_count,
    check_d_model,
    check_finite_array,
    check_float_dtype,
    check_layout,
    check_table_size,
)

METHODS: tuple[str, ...] = ("auto", "direct", "rotation")


def frequencies(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Return the angular frequencies ``ω_i = base^(−2i/d)``, ``i = 0 … d/2 − 1``.

    Radians per position: pair 0 turns once every ``2π`` positions and each
    later pair more slowly. Introduced in notebook 03.

    Returns
    -------
    np.ndarray
        ``(d_model // 2,)`` float64 array, decreasing from 1.
    """
    d_model = check_d_model(d_model)
    base = check_base(base)
    pair_index = np.arange(d_model // 2, dtype=np.float64)
    return base ** (-2.0 * pair_index / d_model)


def wavelengths(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Return the wavelengths ``λ_i = 2π / ω_i`` in positions.

    They run from ``2π`` (pair 0) to ``2π · base^((d−2)/d)`` (last pair),
    just under ``2π · base``. Introduced in notebook 03.
    """
    return 2.0 * np.pi / frequencies(d_model, base)


def layout_permutation(d_model: int) -> np.ndarray:
    """Return the column order that turns an interleaved table into a concatenated one.

    ``concatenated = interleaved[:, order]`` with
    ``order = [0, 2, 4, …, d−2, 1, 3, …, d−1]``; the inverse is
    ``interleaved = concatenated[:, np.argsort(order)]``. As a matrix,
    ``concatenated = interleaved @ permutation_matrix(order).T``.
    Introduced in notebook 03.

    Returns
    -------
    np.ndarray
        ``(d_model,)`` int64 array, a permutation of ``0 … d−1``.
    """
    d_model = check_d_model(d_model)
    return np.concatenate([np.arange(0, d_model, 2), np.arange(1, d_model, 2)])


def _arrange(sines: np.ndarray, cosines: np.ndarray, layout: str, dtype: np.dtype) -> np.ndarray:
    """Place sin and cos columns, each ``(..., d/2)``, into one ``(..., d)`` array."""
    half = sines.shape[-1]
    out = np.empty(sines.shape[:-1] + (2 * half,), dtype=dtype)
    if layout == "interleaved":
        out[..., 0::2] = sines
        out[..., 1::2] = cosines
    else:
        out[..., :half] = sines
        out[..., half:] = cosines
    return out


def encode_positions(
    positions: Any,
    d_model: int,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    dtype: Any = np.float64,
) -> np.ndarray:
    """Return ``PE(p)`` for arbitrary positions: large, non-contiguous or fractional.

    ``PE(p)[2i] = sin(p ω_i)``, ``PE(p)[2i+1] = cos(p ω_i)`` (interleaved).
    The angles ``p ω_i`` are always computed in float64 and only the result is
    cast to ``dtype``: the safe recipe of notebook 07. Introduced in notebook 03.

    Parameters
    ----------
    positions : array_like of float
        Any shape; every entry finite.
    d_model : int
        Positive and even.
    base : float
        Greater than 1.
    layout : {"interleaved", "concatenated"}
    dtype : floating dtype of the result

    Returns
    -------
    np.ndarray
        Shape ``positions.shape + (d_model,)``.
    """
    d_model = check_d_model(d_model)
    base = check_base(base)
    layout = check_layout(layout)
    dtype = check_float_dtype(dtype)
    positions = check_finite_array(positions, "positions")
    check_table_size(positions.shape + (d_model,), np.float64, name="encoding table")
    angles = np.multiply.outer(positions, frequencies(d_model, base))
    return _arrange(np.sin(angles), np.cos(angles), layout, dtype)


def _rotation_table(n_positions: int, omega: np.ndarray, block: int) -> tuple[np.ndarray, np.ndarray]:
    """sin and cos of ``p ω`` for ``p < n`` from two small tables, by angle addition.

    With ``p = a·block + b``: ``sin(pω) = sin(a·block·ω) cos(bω) + cos(a·block·ω) sin(bω)``
    and ``cos(pω) = cos(a·block·ω) cos(bω) − sin(a·block·ω) sin(bω)``. Only
    ``block + n/block`` rows call sin and cos; the rest is multiply-adds.
    """
    n_blocks = -(-n_positions // block)
    offset_angles = np.multiply.outer(np.arange(block, dtype=np.float64), omega)
    anchor_angles = np.multiply.outer(np.arange(n_blocks, dtype=np.float64) * block, omega)
    sin_b, cos_b = np.sin(offset_angles), np.cos(offset_angles)
    sin_a, cos_a = np.sin(anchor_angles)[:, None, :], np.cos(anchor_angles)[:, None, :]
    sines = (sin_a * cos_b + cos_a * sin_b).reshape(-1, omega.size)[:n_positions]
    cosines = (cos_a * cos_b - sin_a * sin_b).reshape(-1, omega.size)[:n_positions]
    return sines, cosines


def sinusoidal_pe(
    n_positions: int,
    d_model: int,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    dtype: Any = np.float64,
    method: str = "auto",
) -> np.ndarray:
    """Return the ``(n, d)`` table whose row ``p`` is ``PE(p)``, ``p = 0 … n − 1``.

    ``PE(p)[2i] = sin(p ω_i)``, ``PE(p)[2i+1] = cos(p ω_i)``,
    ``ω_i = base^(−2i/d)`` (interleaved, as in the paper);
    ``layout="concatenated"`` gives ``[sin …, cos …]`` with the same
    frequencies. Introduced in notebook 03.

    Parameters
    ----------
    n_positions : int
        ``n ≥ 0``; ``n = 0`` gives an empty ``(0, d)`` table.
    d_model : int
        Positive and even.
    base : float
        Greater than 1.
    layout : {"interleaved", "concatenated"}
    dtype : floating dtype of the result; angles are computed in float64.
    method : {"auto", "direct", "rotation"}
        ``"direct"`` evaluates sin and cos at every entry; ``"rotation"``
        builds the table from a few anchor rows by the rotation identity of
        notebook 04; ``"auto"`` picks the faster one for the size.

    Returns
    -------
    np.ndarray
        ``(n_positions, d_model)`` array of ``dtype``.
    """
    n_positions = check_count(n_positions, "n_positions")
    d_model = check_d_model(d_model)
    base = check_base(base)
    layout = check_layout(layout)
    dtype = check_float_dtype(dtype)
    if method not in METHODS:
        choices = ", ".join(repr(choice) for choice in METHODS)
        raise ValueError(f"method must be one of {choices}, got {method!r}")
    check_table_size((n_positions, d_model), np.float64, name="encoding table")
    if method == "auto":
        method = "rotation" if n_positions >= 256 else "direct"
    if method == "direct":
        return encode_positions(np.arange(n_positions), d_model, base=base, layout=layout, dtype=dtype)
    omega = frequencies(d_model, base)
    block = max(1, int(np.sqrt(n_positions)))
    sines, cosines = _rotation_table(n_positions, omega, block)
    return _arrange(sines, cosines, layout, dtype)
