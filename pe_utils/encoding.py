"""The sinusoidal formula (notebook 03).

``PE(p)[2i] = sin(p ω_i)`` and ``PE(p)[2i+1] = cos(p ω_i)`` with
``ω_i = base^(−2i/d)``: the *interleaved* layout of the paper. The
*concatenated* layout ``[sin(p ω_0) … sin(p ω_{d/2−1}), cos(p ω_0) …]``
holds the same numbers in another column order (``layout_permutation``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._checks import (
    check_base,
    check_choice,
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


#: Smaller tables (positions, entries) are built faster by the direct formula.
_ROTATION_MIN_POSITIONS: int = 16
_ROTATION_MIN_ENTRIES: int = 2**14
#: Complex entries per temporary block of the rotation builder (1 MiB of complex128).
_BLOCK_ENTRIES: int = 2**16
#: Integer positions up to this size are exact in float64, and so are their sums.
_EXACT_INTEGERS: float = 2.0**52


def _rotation_pays(n_positions: int, d_model: int) -> bool:
    """Whether the rotation builder beats the direct formula for an ``(n, d)`` table."""
    return n_positions >= _ROTATION_MIN_POSITIONS and n_positions * d_model >= _ROTATION_MIN_ENTRIES


def _contiguous_start(positions: np.ndarray) -> float | None:
    """Return ``s`` if ``positions`` is exactly ``s, s+1, …, s+n−1`` (any shape, C order), else None.

    Only integral ``s`` with ``|s| + n ≤ 2^52`` qualifies, so that every
    ``s + k`` is an exact float64 and the check below is exact. Costs O(n),
    against O(n·d) for the table.
    """
    flat = positions.reshape(-1)
    n = flat.size
    if n == 0:
        return None
    start = float(flat[0])
    if start != np.floor(start) or abs(start) + n > _EXACT_INTEGERS or flat[-1] != start + (n - 1):
        return None
    if not np.array_equal(flat, start + np.arange(n, dtype=np.float64)):
        return None
    return start


def _rotation_table(
    start: float, n_positions: int, omega: np.ndarray, layout: str, dtype: np.dtype
) -> np.ndarray:
    """``(n, d)`` table of ``PE(start + r)``, ``r < n``, by rotating a few anchor rows.

    Write ``r = a·B + b`` with ``B = ⌊√n⌋`` and ``0 ≤ b < B``. As complex numbers
    ``z(p) = sin(pω) + i cos(pω) = i·e^{−ipω}``, so angle addition is one product
    ``z(P_a + b) = z(P_a) · e^{−ibω}``, i.e.
    ``sin((P_a+b)ω) = sin(P_aω) cos(bω) + cos(P_aω) sin(bω)`` and
    ``cos((P_a+b)ω) = cos(P_aω) cos(bω) − sin(P_aω) sin(bω)`` (notebook 04).
    Only the ``n/B`` anchor rows ``P_a = start + a·B`` and the ``B`` offset rows
    call sin and cos; their angles ``P_a·ω`` and ``b·ω`` are float64 products of
    exact integers, as accurate as the direct ``p·ω``. The products are formed in
    float64, a block of anchors at a time, and rounded once into the result;
    an interleaved float64 result, viewed as complex pairs ``(sin, cos)``, is
    itself the ``out=`` of the product. No full-size temporary exists: the
    scratch block holds at most ~1 MiB or ~1/8 of the table.
    """
    half = omega.size
    out = np.empty((n_positions, 2 * half), dtype=dtype)
    if n_positions == 0:
        return out
    block = max(1, math.isqrt(n_positions))
    n_anchors = -(-n_positions // block)
    anchor_angles = np.multiply.outer(start + block * np.arange(n_anchors, dtype=np.float64), omega)
    anchors = np.empty(anchor_angles.shape, dtype=np.complex128)
    np.sin(anchor_angles, out=anchors.real)
    np.cos(anchor_angles, out=anchors.imag)
    offset_angles = np.multiply.outer(np.arange(block, dtype=np.float64), omega)
    steps = np.empty(offset_angles.shape, dtype=np.complex128)
    np.cos(offset_angles, out=steps.real)
    np.negative(np.sin(offset_angles), out=steps.imag)
    del anchor_angles, offset_angles

    # The result seen as (n, d/2) complex pairs sin + i·cos, when the layout allows it.
    complex_dtype = np.result_type(dtype, np.complex64)
    interleaved = layout == "interleaved" and complex_dtype.itemsize == 2 * dtype.itemsize
    pairs = out.view(complex_dtype) if interleaved else None
    sine_cols, cosine_cols = _columns(layout, half)
    # Blocks of whole anchors: at most ~1 MiB of scratch and at most ~1/8 of the table.
    anchors_per_block = max(1, min(_BLOCK_ENTRIES // (block * half), n_anchors // 8))
    in_place = pairs is not None and dtype == np.float64
    scratch = None if in_place else np.empty(anchors_per_block * block * half, np.complex128)

    def rotate(a0: int, a1: int, width: int) -> None:
        """Rows ``a0·B … a1·B − 1`` (only ``width`` offsets per anchor)."""
        rows = slice(a0 * block, a0 * block + (a1 - a0) * width)
        shape = (a1 - a0, width, half)
        terms = anchors[a0:a1, None, :], steps[None, :width, :]
        if in_place:
            np.multiply(*terms, out=pairs[rows].reshape(shape))
        else:
            product = np.multiply(*terms, out=scratch[: shape[0] * width * half].reshape(shape))
            if pairs is not None:
                pairs[rows] = product.reshape(-1, half)  # one rounding to dtype
            else:
                out[rows, sine_cols] = product.real.reshape(-1, half)
                out[rows, cosine_cols] = product.imag.reshape(-1, half)
        # A product of two rounded unit vectors can exceed 1 by an ulp (sin and cos never
        # do); clipping the block while it is still in cache keeps every entry in [−1, 1].
        np.clip(out[rows], -1.0, 1.0, out=out[rows])

    n_whole = n_positions // block
    for first in range(0, n_whole, anchors_per_block):
        rotate(first, min(first + anchors_per_block, n_whole), block)
    if n_whole < n_anchors:
        rotate(n_whole, n_anchors, n_positions - n_whole * block)
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
    cast to ``dtype``: the safe recipe of notebook 07. A large enough run of
    consecutive integers ``s, s+1, …, s+n−1`` (such as ``np.arange(a, b)``, in
    any shape) is built like ``sinusoidal_pe(method="rotation")``, from a few
    anchor rows, with float64 angles of the same accuracy. Introduced in
    notebook 03.

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
    omega = frequencies(d_model, base)
    start = _contiguous_start(positions) if _rotation_pays(positions.size, d_model) else None
    if start is None:
        return _direct_table(positions, omega, layout, dtype)
    table = _rotation_table(start, positions.size, omega, layout, dtype)
    return table.reshape(positions.shape + (d_model,))


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
        builds the table from about ``2√n`` anchor and offset rows by the
        rotation identity of notebook 04 (angle addition, ``p = a·B + b``),
        with far fewer calls to sin and cos (usually faster for large tables;
        ``make bench`` measures it) and at most twice the direct formula's
        rounding error (tests/test_builders.py); ``"auto"`` picks ``"rotation"`` unless the table is tiny
        (fewer than 16 rows or 2^14 entries), where ``"direct"`` is faster.

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
    method = check_choice(method, METHODS, "method")
    check_table_size((n_positions, d_model), np.float64, name="encoding table")
    omega = frequencies(d_model, base)
    if method == "auto":
        method = "rotation" if _rotation_pays(n_positions, d_model) else "direct"
    if method == "direct":
        return _direct_table(np.arange(n_positions, dtype=np.float64), omega, layout, dtype)
    return _rotation_table(0.0, n_positions, omega, layout, dtype)
