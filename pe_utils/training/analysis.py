"""What a trained head does with position (notebooks 10 and 13): the mean-token score at each offset
(``offset_terms``) and the share of a score matrix that commutes with every shift (``commuting_share``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import (
    check_finite_array,
)
from ..frequency_use import p_rope_frequencies
from ..similarity import commuting_part
from .head import LookBackHead, _check_head


def offset_terms(head: LookBackHead, offsets: Any) -> np.ndarray:
    """Return ``c_i(j)``: pair ``i``'s term in a RoPE head's score at offset ``j``, averaged over tokens.

    A query at ``p`` and a key at ``q = p − j``, their tokens drawn independently and uniformly
    from the vocabulary: the score is bilinear, so its mean is the score of the mean query
    ``q̄ = mean_v E[v] W_q`` and the mean key ``κ̄ = mean_v E[v] W_k``, rotated to ``p`` and
    ``p − j``. Pair by pair, with ``ω_i`` the head's frequencies::

        mean score(j) = Σ_i c_i(j),    c_i(j) = (a_i cos jω_i − b_i sin jω_i) / √d_k,
        a_i = q̄_2i κ̄_2i + q̄_2i+1 κ̄_2i+1,    b_i = q̄_2i+1 κ̄_2i − q̄_2i κ̄_2i+1.

    (Read a pair as the complex number ``x_2i + i x_2i+1``: RoPE multiplies it by ``e^{ipω_i}``,
    and the dot product of two pairs is ``Re(q̄_i conj(κ̄_i) e^{ijω_i})``, with
    ``q̄_i conj(κ̄_i) = a_i + i b_i``.) It depends on ``j`` only, not on ``p``. The frequencies are
    ``p_rope_frequencies(d_k, head.rope_proportion, base=head.base)``: for p-RoPE the unrotated
    pairs have ``ω_i = 0`` and a term ``a_i/√d_k`` at every offset. Introduced in notebook 10
    (used again in notebook 13).

    Parameters
    ----------
    head : LookBackHead
        Of variant ``"rope"`` (other variants add positions to their inputs: their mean score
        is not this sum).
    offsets : array_like of real numbers
        The offsets ``j = p − q``, finite (``j > 0``: the key is ``j`` places back).

    Returns
    -------
    np.ndarray
        Shape ``offsets.shape + (d_k/2,)``: ``c[..., i]`` is pair ``i``'s term.
    """
    head = _check_head(head)
    if head.variant != "rope":
        raise ValueError(
            f"head must be of variant 'rope' (offset_terms sums RoPE's pairs), got variant {head.variant!r}"
        )
    offsets = check_finite_array(offsets, "offsets")
    mean_query = (head.embeddings @ head.W_q).mean(axis=0)
    mean_key = (head.embeddings @ head.W_k).mean(axis=0)
    a = mean_query[0::2] * mean_key[0::2] + mean_query[1::2] * mean_key[1::2]
    b = mean_query[1::2] * mean_key[0::2] - mean_query[0::2] * mean_key[1::2]
    d_k = head.W_q.shape[1]
    angles = offsets[..., None] * p_rope_frequencies(d_k, head.rope_proportion, base=head.base)
    return (a * np.cos(angles) - b * np.sin(angles)) / np.sqrt(d_k)


def commuting_share(matrix: Any, *, layout: str = "interleaved") -> float:
    """Return ``‖C‖²_F / ‖M‖²_F``, ``C = commuting_part(M)``: the share of ``M`` commuting with every ``T_k``.

    ``C`` is an orthogonal projection of ``M``, so the share lies in ``[0, 1]``:
    1 exactly when ``M`` commutes with every ``T_k``, about ``1/d`` for a
    matrix with independent random entries (``d`` of its ``d²`` directions).
    Introduced in notebook 10.

    Parameters
    ----------
    matrix : array_like, shape (d, d)
        Finite, ``d`` positive and even, not all zero (for a head, ``W_q W_kᵀ``).
    layout : {"interleaved", "concatenated"}
        Which dimensions form the pairs, as in :func:`pe_utils.commuting_part`.
    """
    part = commuting_part(matrix, layout=layout)
    total = float(np.sum(np.asarray(matrix, dtype=np.float64) ** 2))
    if total == 0.0:
        raise ValueError("matrix must not be all zeros: the share of the zero matrix is undefined")
    return float(np.sum(part**2)) / total
