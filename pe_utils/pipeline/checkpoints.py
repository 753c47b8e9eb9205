"""Converting a checkpoint between pairings (notebook 11): Hugging Face's permutation of the rows of ``W_q``
and ``W_k`` from interleaved to half-split pairs, and its inverse.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import (
    check_layout,
    check_matrix,
    check_positive_count,
)


def permute_qk_rows(weight: Any, n_heads: int, *, to: str = "concatenated") -> np.ndarray:
    """Reorder the rows of a query or key weight, head by head, between the two pairings.

    ``weight`` is ``(n_heads·d_head, d_in)``, PyTorch's ``(out, in)``. With
    ``to="concatenated"`` (interleaved → half-split, Hugging Face's conversion of Meta's
    Llama checkpoints) new row ``h·d_head + a·d_head/2 + i`` is old row
    ``h·d_head + 2i + a``, ``a ∈ {0, 1}``: within each head, the rows of interleaved pair
    ``i`` go to rows ``i`` and ``i + d_head/2``. That is ``permute`` in
    huggingface/transformers ``models/llama/convert_llama_weights_to_hf.py`` (read at
    commit ``6ae9169c``): ``w.view(n_heads, d_head/2, 2, d_in).transpose(1, 2)``, applied to
    ``wq`` and ``wk`` only. ``to="interleaved"`` undoes it. Within a head this is
    ``layout_permutation(d_head)`` (notebook 03). Notebook 08 writes ``permute`` out from the
    source and checks it against this function; introduced in notebook 11.

    Parameters
    ----------
    weight : array, shape (n_heads·d_head, d_in)
    n_heads : int
        Positive; divides the number of rows, and ``d_head`` is even.
    to : {"concatenated", "interleaved"}
        The pairing the rows are put in.

    Returns
    -------
    np.ndarray
        Float64 array of the shape of ``weight``.
    """
    weight = check_matrix(weight, "weight")
    n_heads = check_positive_count(n_heads, "n_heads")
    to = check_layout(to, "to")
    rows, cols = weight.shape
    if rows % n_heads or (rows // n_heads) % 2:
        raise ValueError(
            f"weight must have n_heads·d_head rows with d_head even; got {rows} rows for n_heads={n_heads}"
        )
    half = rows // n_heads // 2
    if to == "concatenated":  # (head, pair, member) → (head, member, pair)
        grid = weight.reshape(n_heads, half, 2, cols).transpose(0, 2, 1, 3)
    else:  # (head, member, pair) → (head, pair, member)
        grid = weight.reshape(n_heads, 2, half, cols).transpose(0, 2, 1, 3)
    return grid.reshape(rows, cols).copy()
