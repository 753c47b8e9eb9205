"""Position ids in real pipelines (notebook 11): from a left- or right-padded attention mask, as Hugging
Face's ``generate`` computes them, and for several documents packed in one row (positions restart at 0;
attention stays inside each document).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import (
    check_choice,
    check_positive_count,
    check_table_size,
)

#: The value Hugging Face's ``generate`` puts at padded slots, by release:
#: 0 in 5.x (``_prepare_position_ids_for_generation``, read in 5.23.0 and 5.24.0),
#: 1 in 4.x (``prepare_inputs_for_generation``, read at commit ``1097d4b3``).
PADDED_POSITIONS: dict[str, int] = {"5.x": 0, "4.x": 1}


#: The releases :func:`positions_from_mask` follows; the first is its default.
RELEASES: tuple[str, ...] = tuple(PADDED_POSITIONS)


#: The padded-slot value of the default release (5.x): 0.
PADDED_POSITION: int = PADDED_POSITIONS[RELEASES[0]]


def _check_mask(attention_mask: Any, name: str = "attention_mask") -> np.ndarray:
    """A 2-D array of 0s and 1s (bool, integer or float), returned as int64."""
    try:
        array = np.asarray(attention_mask)
    except ValueError:  # rows of different lengths
        raise ValueError(
            f"{name} must be a rectangular 2-D array, shape (batch, n), with rows of equal length; "
            "got rows of different lengths"
        ) from None
    kind = array.dtype
    if not (kind == np.bool_ or np.issubdtype(kind, np.integer) or np.issubdtype(kind, np.floating)):
        raise TypeError(f"{name} must be an array of 0s and 1s, got an array of dtype {array.dtype}")
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D, shape (batch, n): one row of 0s and 1s per sequence, "
            f"got shape {array.shape}"
        )
    if array.size and not np.all((array == 0) | (array == 1)):
        bad = array[(array != 0) & (array != 1)].ravel()[0]
        raise ValueError(f"{name} must hold only 0 (padding) and 1 (token), got the value {bad!r}")
    return array.astype(np.int64)


def positions_from_mask(attention_mask: Any, *, release: str = "5.x") -> np.ndarray:
    """Position ids of a padded batch, as Hugging Face's ``generate`` computes them.

    ``ids = cumsum(mask, axis=-1) − 1``, then ``ids = v`` wherever ``mask == 0``: the
    ``r``-th real token of a row (counting from 0) gets position ``r`` whatever the
    padding before it, and every padded slot gets the value ``v`` (its key is masked out;
    the value only has to be a valid index). ``v`` depends on the release:

    - ``release="5.x"`` (the default): ``v = 0``. transformers 5.x,
      ``GenerationMixin._prepare_position_ids_for_generation`` in ``generation/utils.py``,
      ``masked_fill(attention_mask == 0, 0)`` (read in releases 5.23.0 and 5.24.0);
    - ``release="4.x"``: ``v = 1``. transformers 4.x,
      ``GenerationMixin.prepare_inputs_for_generation`` (same file, read at commit
      ``1097d4b3``), ``masked_fill_(attention_mask == 0, 1)``.

    The real tokens get the same ids in both. Right padding gives ``0 … k−1`` for the
    ``k`` real tokens, as ``arange`` would; left padding is where ``arange`` and this differ.

    Decode steps differ between the releases. 4.x appends a column of ones to the mask per
    new token and recomputes the ids from the whole mask, so the new token's id, the last
    column of ``positions_from_mask(grown, release="4.x")``, is the number of real tokens
    before it in its row. 5.x (``_update_model_kwargs_for_generation``) gives the new token
    the row's last id plus 1. For a left-padded or unpadded row the two agree; for a
    right-padded row the last id is a padded slot's 0, so in 5.x its new tokens restart
    at 1, 2, … (the reason generation pads on the left). Introduced in notebook 11.

    Parameters
    ----------
    attention_mask : array_like, shape (batch, n)
        1 for a token, 0 for padding (bool, integer or float entries).
    release : {"5.x", "4.x"}
        Whose value to put at padded slots: 0 (5.x, the current releases) or 1 (4.x).

    Returns
    -------
    np.ndarray
        ``(batch, n)`` int64 array.
    """
    mask = _check_mask(attention_mask)
    padded = PADDED_POSITIONS[check_choice(release, RELEASES, "release")]
    ids = np.cumsum(mask, axis=-1) - 1
    ids[mask == 0] = padded
    return ids


def _check_lengths(lengths: Any) -> np.ndarray:
    """A 1-D sequence of positive integers (document lengths)."""
    array = np.asarray(lengths, dtype=object) if not isinstance(lengths, np.ndarray) else lengths
    if array.ndim != 1 or array.size == 0:
        raise ValueError(
            f"lengths must be a non-empty 1-D sequence of document lengths, got shape {array.shape}"
        )
    for value in array.tolist():
        check_positive_count(value, "every entry of lengths")
    return np.array([int(value) for value in array.tolist()], dtype=np.int64)


def packed_positions(lengths: Any) -> np.ndarray:
    """Positions of documents packed into one row: ``0 … L_j − 1`` for each document ``j``.

    For lengths ``(3, 2)``: ``[0, 1, 2, 0, 1]``. Hugging Face (release 5.24.0) reads the
    documents back from such ids under eager and SDPA attention only when no 2-D attention
    mask is passed and there is no cache (``_preprocess_mask_arguments`` in
    ``masking_utils.py``). ``LlamaModel.forward`` builds a ``DynamicCache`` whenever
    ``use_cache`` is true, and a call that does not set it takes ``config.use_cache``
    (``True`` by default for Llama; in training mode too, unless gradient checkpointing is
    on), so a plain forward leaks unless ``use_cache=False``; ``Trainer`` copies
    ``TrainingArguments.use_cache``, ``False`` by default, into the config. Under
    flash-attention 2 the ids are read with or without a cache, and also with an all-ones
    mask as long as the keys, which ``flash_attention_mask`` drops first
    (4.46.3: ``LlamaModel._update_causal_mask``, with no length condition). Under eager and
    SDPA an all-ones mask leaves the ids unread, and the documents see each other. Its
    flash-attention path starts a document wherever a position equals ``position_ids.min()``
    (``prepare_fa_kwargs_from_position_ids`` in ``modeling_flash_attention_utils.py``,
    release 5.24.0); before the rename it was ``prepare_fa2_from_position_ids``, which
    started one wherever a position is 0 (read at commit ``7713be1e`` and in 4.46.3): the
    same documents for these ids, whose minimum is 0. Its ``masking_utils`` starts one
    wherever consecutive positions do not step by +1 (``find_packed_sequence_indices``,
    commit ``2ccc6cae``). Introduced in notebook 11.

    Parameters
    ----------
    lengths : sequence of int
        The documents' lengths, each at least 1.

    Returns
    -------
    np.ndarray
        ``(sum(lengths),)`` int64 array.
    """
    lengths = _check_lengths(lengths)
    total = int(lengths.sum())
    check_table_size((total,), np.int64, name="packed positions")
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(total, dtype=np.int64) - starts


def block_causal_mask(lengths: Any) -> np.ndarray:
    """Which key each query of a packed row may see: earlier or equal, same document.

    ``allowed[i, j] = (j ≤ i) and doc(i) == doc(j)``: block-diagonal, one causal block per
    document. Introduced in notebook 11.

    Parameters
    ----------
    lengths : sequence of int
        The documents' lengths, each at least 1.

    Returns
    -------
    np.ndarray
        ``(n, n)`` bool array, ``n = sum(lengths)``.
    """
    lengths = _check_lengths(lengths)
    total = int(lengths.sum())
    check_table_size((total, total), np.bool_, name="block-causal mask")
    document = np.repeat(np.arange(lengths.size), lengths)
    return np.tri(total, dtype=bool) & (document[:, None] == document[None, :])
