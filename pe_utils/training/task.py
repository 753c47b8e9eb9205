"""The look-back task (notebook 10): random tokens, and at each position p ≥ k the token k places back."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import (
    check_count,
    check_positive_count,
    check_table_size,
)

#: Marks a position that has no target (``p < k``) in the array of targets.
NO_TARGET: int = -1


def _check_tokens(tokens: Any, vocab_size: int | None = None, *, stacked: bool = False) -> np.ndarray:
    array = np.asarray(tokens)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"tokens must be an integer array of token ids, got dtype {array.dtype}")
    if array.ndim != 2 + stacked:
        axes = "(heads, sequences, length)" if stacked else "(sequences, length)"
        raise ValueError(f"tokens must be a {2 + stacked}-D array {axes}, got shape {array.shape}")
    if 0 in array.shape[:-1]:
        raise ValueError(f"tokens must hold at least one sequence, got an empty batch of shape {array.shape}")
    if array.shape[-1] == 0:
        raise ValueError("tokens must hold sequences of length at least 1, got length 0")
    if np.any(array < 0) or (vocab_size is not None and np.any(array >= vocab_size)):
        raise ValueError(
            f"tokens must be token ids in 0 … {'vocab_size − 1' if vocab_size is None else vocab_size - 1}, "
            f"got values from {int(array.min())} to {int(array.max())}"
        )
    return array.astype(np.int64, copy=False)


def look_back_targets(tokens: Any, offset: int) -> np.ndarray:
    """Return the targets of the look-back task: ``target[b, p] = tokens[b, p − k]``.

    Positions ``p < k`` have no token ``k`` places back; they get
    :data:`NO_TARGET` (−1) and are left out of the loss and the accuracy.
    Introduced in notebook 10.

    Parameters
    ----------
    tokens : int array, shape (sequences, n)
    offset : int
        ``k``, with ``1 ≤ k < n``.

    Returns
    -------
    np.ndarray
        ``(sequences, n)`` int64 array.
    """
    tokens = _check_tokens(tokens)
    offset = _check_offset(offset, tokens.shape[1])
    targets = np.full(tokens.shape, NO_TARGET, dtype=np.int64)
    targets[:, offset:] = tokens[:, :-offset]
    return targets


def _check_offset(offset: Any, length: int) -> int:
    offset = check_positive_count(offset, "offset")
    if offset >= length:
        raise ValueError(
            f"offset (k = {offset}) must be smaller than the sequence length n = {length}: "
            "no position would have a token k places back"
        )
    return offset


def look_back_task(
    n_sequences: int, length: int, vocab_size: int, *, offset: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Return random token sequences and their look-back targets.

    Tokens are drawn uniformly from ``0 … vocab_size − 1`` by
    ``np.random.default_rng(seed)``; ``targets = look_back_targets(tokens,
    offset)``. Introduced in notebook 10.

    Parameters
    ----------
    n_sequences : int
        Batch size, at least 1.
    length : int
        ``n``, greater than ``offset``.
    vocab_size : int
        At least 2 (with one token there is nothing to find).
    offset : int
        ``k ≥ 1``.
    seed : int
        Non-negative.

    Returns
    -------
    tokens, targets : np.ndarray
        Both ``(n_sequences, length)`` int64; ``targets`` holds −1 where ``p < k``.
    """
    n_sequences = check_count(n_sequences, "n_sequences")
    if n_sequences == 0:
        raise ValueError("n_sequences must be at least 1, got 0 (an empty batch)")
    length = check_positive_count(length, "length")
    vocab_size = _check_vocab_size(vocab_size)
    offset = _check_offset(offset, length)
    seed = check_count(seed, "seed")
    check_table_size((n_sequences, length), np.int64, name="token batch")
    tokens = np.random.default_rng(seed).integers(0, vocab_size, size=(n_sequences, length))
    return tokens, look_back_targets(tokens, offset)


def _check_vocab_size(vocab_size: Any) -> int:
    vocab_size = check_count(vocab_size, "vocab_size")
    if vocab_size < 2:
        raise ValueError(f"vocab_size must be at least 2 tokens, got {vocab_size}")
    return vocab_size
