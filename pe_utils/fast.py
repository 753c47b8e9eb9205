"""A faster builder of the sinusoidal table, by rotations (notebook 04's appendix).

:func:`pe_utils.sinusoidal_pe` is the formula as written: sin and cos at every
entry. :func:`sinusoidal_pe_fast` returns the same table, to within a few
roundings, but calls sin and cos for only about ``2√n`` rows: every other row
is an anchor row turned by a rotation (notebook 04: shifting is rotating).
Choose it explicitly when a large table must be built quickly; ``make bench``
(``benchmarks/run.py``) compares the two.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._checks import (
    check_table_arguments,
)
from .encoding import _columns, frequencies

#: Complex entries per temporary block (1 MiB of complex128).
_BLOCK_ENTRIES: int = 2**16


def sinusoidal_pe_fast(
    n_positions: int,
    d_model: int,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    dtype: Any = np.float64,
) -> np.ndarray:
    """Return :func:`pe_utils.sinusoidal_pe`'s ``(n, d)`` table, built from a few rows by rotations.

    Write each position ``p = a·B + b`` with ``B = ⌊√n⌋`` and ``0 ≤ b < B``.
    By angle addition (notebook 04, ``PE(p + k) = T_k PE(p)``)::

        sin((aB + b)ω) = sin(aBω) cos(bω) + cos(aBω) sin(bω)
        cos((aB + b)ω) = cos(aBω) cos(bω) − sin(aBω) sin(bω)

    As complex numbers ``z(p) = sin(pω) + i·cos(pω)`` this is one product,
    ``z(aB + b) = z(aB) · e^{−ibω}``. Only the ``⌈n/B⌉`` anchor rows ``aB``
    and the ``B`` offsets ``b`` call sin and cos: about ``2√n·d/2`` calls of
    each, against ``n·d/2`` for the formula. Notebook 04's appendix (A.2–A.4)
    builds it by hand and measures it.

    Accuracy: the angles ``aB·ω_i`` and ``b·ω_i`` are float64 products of
    exact integers, rounded once like the formula's ``p·ω_i``, and every row
    is one rotation of a fresh anchor, so no error carries from row to row.
    Its largest error against the exact ``sin(pω_i)``, ``cos(pω_i)`` is at
    most twice the formula's, plus ``4ε``: ``tests/maths/test_fast.py`` checks it
    on sizes up to ``n = 2^17`` and up to ``d = 1024``, ``make bench`` up to
    131072 × 1024. Entries are clipped to ``[−1, 1]`` (a product of two
    rounded unit vectors can exceed 1 by an ulp).

    Memory: the products are formed in float64, a block of anchors at a time
    (at most ~1 MiB, at most ~1/8 of the table), and rounded once into the
    result, so no temporary is as large as the table. ``tests/maths/test_fast.py``
    holds the peak to 1.5 times the returned table at 8192 × 256; notebook 04
    measures under 1.1 at 20000 × 64. The formula also holds its float64 angle
    grid, half a float64 table.

    Speed depends on the machine: ``make bench`` (``benchmarks/run.py``)
    compares it with :func:`pe_utils.sinusoidal_pe`. Introduced in notebook 04
    (appendix).

    Parameters
    ----------
    n_positions : int
        ``n ≥ 0``.
    d_model : int
        Positive and even.
    base : float
        Greater than 1.
    layout : {"interleaved", "concatenated"}
    dtype : floating dtype of the result; products are formed in float64.

    Returns
    -------
    np.ndarray
        ``(n_positions, d_model)`` array of ``dtype``.
    """
    n_positions, d_model, base, layout, dtype = check_table_arguments(
        n_positions, d_model, base, layout, dtype
    )
    omega = frequencies(d_model, base)
    half = omega.size
    out = np.empty((n_positions, d_model), dtype=dtype)
    if n_positions == 0:
        return out
    block = max(1, math.isqrt(n_positions))
    n_anchors = -(-n_positions // block)
    # z(aB) = sin(aBω) + i·cos(aBω) for each anchor; e^{−ibω} = cos(bω) − i·sin(bω) for each offset.
    anchor_angles = np.multiply.outer(block * np.arange(n_anchors, dtype=np.float64), omega)
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
        # Clipping the block while it is still in cache keeps every entry in [−1, 1].
        np.clip(out[rows], -1.0, 1.0, out=out[rows])

    n_whole = n_positions // block
    for first in range(0, n_whole, anchors_per_block):
        rotate(first, min(first + anchors_per_block, n_whole), block)
    if n_whole < n_anchors:
        rotate(n_whole, n_anchors, n_positions - n_whole * block)
    return out


__all__ = ["sinusoidal_pe_fast"]
