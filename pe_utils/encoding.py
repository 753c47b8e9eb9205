"""The sinusoidal formula (notebook 03).

``PE(p)[2i] = sin(p ω_i)`` and ``PE(p)[2i+1] = cos(p ω_i)`` with
``ω_i = base^(−2i/d)``: the *interleaved* layout of the paper. The
*concatenated* layout ``[sin(p ω_0) … sin(p ω_{d/2−1}), cos(p ω_0) …]``
holds the same numbers in another column order (``layout_permutation``).
:func:`sinusoidal_pe` evaluates the formula as written; :mod:`pe_utils.fast`
builds the same table, to within a few roundings, with fewer calls to sin and cos
(notebook 04's appendix).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import (
    check_base,
    check_d_model,
    check_finite_array,
    check_float_dtype,
    check_layout,
    check_table_arguments,
    check_table_size,
)


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
    check_table_size((d_model // 2,), np.float64, name="frequencies")
    pair_index = np.arange(d_model // 2, dtype=np.float64)
    return base ** (-2.0 * pair_index / d_model)


def wavelengths(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Return the wavelengths ``λ_i = 2π / ω_i`` in positions.

    They run from ``2π`` (pair 0) to ``2π · base^((d−2)/d)`` (last pair),
    just under ``2π · base``. Introduced in notebook 03; notebook 02
    previews them next to the periods ``2^(b+1)`` of the binary bits.
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
    check_table_size((d_model,), np.int64, name="layout permutation")
    return np.concatenate([np.arange(0, d_model, 2), np.arange(1, d_model, 2)])


def _direct_table(positions: np.ndarray, omega: np.ndarray, layout: str, dtype: np.dtype) -> np.ndarray:
    """``PE(p)`` for float64 ``positions`` by the formula: sin and cos at every entry.

    The float64 angle grid ``p ω`` is the only temporary; sin and cos are written
    straight into the columns of the result (rounded once to ``dtype``).
    """
    half = omega.size
    out = np.empty(positions.shape + (2 * half,), dtype=dtype)
    angles = np.multiply.outer(positions, omega)
    sine_cols, cosine_cols = _columns(layout, half)
    np.sin(angles, out=out[..., sine_cols])
    np.cos(angles, out=out[..., cosine_cols])
    return out


def _columns(layout: str, half: int) -> tuple[slice, slice]:
    """Column slices of the sines and of the cosines of a ``(..., d)`` table."""
    if layout == "interleaved":
        return slice(0, None, 2), slice(1, None, 2)
    return slice(0, half), slice(half, None)


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
    cast to ``dtype``: the safe recipe of notebook 07. For the rows
    ``0 … n − 1`` it gives :func:`sinusoidal_pe`'s table, bit for bit.
    Introduced in notebook 03.

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
    return _direct_table(positions, frequencies(d_model, base), layout, dtype)


def sinusoidal_pe(
    n_positions: int,
    d_model: int,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    dtype: Any = np.float64,
) -> np.ndarray:
    """Return the ``(n, d)`` table whose row ``p`` is ``PE(p)``, ``p = 0 … n − 1``.

    ``PE(p)[2i] = sin(p ω_i)``, ``PE(p)[2i+1] = cos(p ω_i)``,
    ``ω_i = base^(−2i/d)`` (interleaved, as in the paper);
    ``layout="concatenated"`` gives ``[sin …, cos …]`` with the same
    frequencies. Evaluated entry by entry, as written: the angles in float64,
    rounded once to ``dtype``. For large tables
    :func:`pe_utils.sinusoidal_pe_fast` builds the same table, to within a few
    roundings, with far fewer calls to sin and cos (notebook 04's appendix).
    Introduced in notebook 03.

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

    Returns
    -------
    np.ndarray
        ``(n_positions, d_model)`` array of ``dtype``.
    """
    n_positions, d_model, base, layout, dtype = check_table_arguments(
        n_positions, d_model, base, layout, dtype
    )
    positions = np.arange(n_positions, dtype=np.float64)  # p = 0 … n − 1
    angles = np.outer(positions, frequencies(d_model, base))  # p·ω_i, in float64
    table = np.empty((n_positions, d_model), dtype=dtype)
    sines, cosines = _columns(layout, d_model // 2)  # interleaved: columns 0::2 and 1::2
    np.sin(angles, out=table[:, sines])  # each value rounded once to dtype
    np.cos(angles, out=table[:, cosines])
    return table
