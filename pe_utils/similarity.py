"""The dot-product identity (notebook 05).

``PE(p)·PE(q) = Σ_i [sin pω_i sin qω_i + cos pω_i cos qω_i] = Σ_i cos((q−p) ω_i)``:
the dot product of two encodings depends only on the offset ``k = q − p``.
Through a weight matrix ``M`` the term ``PE(p)ᵀ M PE(q)`` is a function of
``q − p`` alone only for the part of ``M`` that commutes with every ``T_k``
(:func:`commuting_part`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import (
    check_base,
    check_d_model,
    check_finite_array,
    check_layout,
    check_matrix,
    check_table_size,
)
from .encoding import frequencies, layout_permutation


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


def commuting_part(matrix: Any, *, layout: str = "interleaved") -> np.ndarray:
    """Return the part of a ``d × d`` matrix ``M`` that commutes with every ``T_k``.

    For pair ``i``, let ``B_i`` be the 2×2 diagonal block of ``M`` on rows and
    columns ``2i, 2i+1`` (interleaved layout). The result keeps, in each
    ``B_i``, its scaled-rotation part and sets everything else to zero::

        a_i = (B_i[0, 0] + B_i[1, 1]) / 2,    b_i = (B_i[0, 1] − B_i[1, 0]) / 2,
        C = blockdiag([[a_i, b_i], [−b_i, a_i]]).

    For any base > 1 the frequencies ``ω_i`` lie in ``(0, 1]`` and are distinct,
    so the matrices that commute with ``T_1`` (hence with every ``T_k``, integer
    ``k``) are exactly these block-diagonal scaled rotations, whatever the base;
    ``C`` is the orthogonal (Frobenius) projection of ``M`` onto them. Then
    ``PE(p)ᵀ C PE(q) = Σ_i [a_i cos((q−p)ω_i) − b_i sin((q−p)ω_i)]`` depends on
    ``q − p`` alone, and ``M − C`` holds everything in ``PE(p)ᵀ M PE(q)`` that
    depends on ``p`` and ``q`` separately. Introduced in notebook 05.

    Parameters
    ----------
    matrix : array_like, shape (d, d)
        Finite real entries, ``d`` positive and even (for attention, ``W_q W_kᵀ``).
    layout : {"interleaved", "concatenated"}
        The layout the rows and columns of ``matrix`` follow.

    Returns
    -------
    np.ndarray
        ``(d, d)`` float64 array ``C`` in the same layout.
    """
    matrix = check_matrix(matrix, "matrix")
    if matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"matrix must be square (d × d), got shape {matrix.shape}")
    d_model = check_d_model(matrix.shape[0], name="matrix.shape[0] (d_model)")
    layout = check_layout(layout)
    order = layout_permutation(d_model) if layout == "concatenated" else np.arange(d_model)
    interleaved = np.empty_like(matrix)
    interleaved[np.ix_(order, order)] = matrix  # row/column order[j] of the input is j here
    even = np.arange(0, d_model, 2)
    scale = (interleaved[even, even] + interleaved[even + 1, even + 1]) / 2
    turn = (interleaved[even, even + 1] - interleaved[even + 1, even]) / 2
    result = np.zeros_like(interleaved)
    result[even, even] = scale
    result[even + 1, even + 1] = scale
    result[even, even + 1] = turn
    result[even + 1, even] = -turn
    return result[np.ix_(order, order)]
