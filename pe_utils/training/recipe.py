"""Notebook 10's recipe, shared by notebook 13 and ``tools/sweep_13.py``: the sizes, the training settings,
the data of each seed, the test sets and the start-token variant.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._checks import (
    check_count,
    check_positive_count,
)
from .task import NO_TARGET, _check_tokens, look_back_targets, look_back_task


class TaskSizes(NamedTuple):
    """The sizes of notebook 10's look-back task and head. Introduced in notebook 10."""

    vocab_size: int  #: ``V``, the tokens ``0 … V − 1``
    d_model: int  #: ``d``, the width of the embeddings (and ``d_k``)
    length: int  #: ``n``, the trained sequence length
    offset: int  #: ``k``, how far back the target is


#: Notebook 10's task: ``V, d, n, k = SIZES`` gives 8 tokens, d = 16, n = 16 and k = 2.
SIZES: TaskSizes = TaskSizes(vocab_size=8, d_model=16, length=16, offset=2)


#: Notebook 10's optimiser settings, ``train_head(head, *data, **TRAINING)``: 100 full-batch Adam
#: steps with learning rate 0.05 (β₁, β₂ and ε are :func:`adam_update`'s defaults).
TRAINING: dict[str, Any] = {"steps": 100, "learning_rate": 0.05}


#: Sequences in one training set, and what is added to a run's seed to draw them.
TRAINING_SEQUENCES: int = 64


DATA_SEED_OFFSET: int = 100


#: The lengths notebook 10 tests at: ``n, 2n, 4n``.
TEST_LENGTHS: tuple[int, ...] = (SIZES.length, 2 * SIZES.length, 4 * SIZES.length)


#: Test positions per length: ``2048 // m`` sequences of length ``m``.
TEST_POSITIONS: int = 2048


def training_data(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Return the training set of run ``seed`` (notebook 10's recipe).

    ``look_back_task(64, n, V, offset=k, seed=100 + seed)`` with the sizes of :data:`SIZES`:
    a run's weights come from ``seed`` and its data from ``100 + seed``, so the heads of one
    seed share their data. Introduced in notebook 10.

    Parameters
    ----------
    seed : int
        Non-negative.

    Returns
    -------
    tokens, targets : np.ndarray
        Both ``(64, 16)`` int64.
    """
    seed = check_count(seed, "seed")
    V, _, n, k = SIZES
    return look_back_task(TRAINING_SEQUENCES, n, V, offset=k, seed=DATA_SEED_OFFSET + seed)


def look_back_test_sets() -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Return notebook 10's test sets, ``{m: (tokens, targets)}`` for ``m`` in ``n, 2n, 4n``.

    At length ``m``: ``look_back_task(2048 // m, m, V, offset=k, seed=10 + m // n)``, so 128,
    64 and 32 sequences, 2048 positions at each length, drawn with seeds 11, 12 and 14 (none of
    them a training seed ``100 + s``). Introduced in notebook 10.
    """
    V, _, n, k = SIZES
    return {m: look_back_task(TEST_POSITIONS // m, m, V, offset=k, seed=10 + m // n) for m in TEST_LENGTHS}


def with_start_token(
    tokens: Any, *, start: int = SIZES.vocab_size, offset: int = SIZES.offset
) -> tuple[np.ndarray, np.ndarray]:
    """Return ``tokens`` with a start token at ``p = 0``, and their look-back targets.

    ``tokens[:, 0]`` becomes ``start`` (by default ``V``, the id after the ``V`` tokens: a head
    needs ``V + 1`` embeddings). The targets are :func:`look_back_targets`, with no target at
    ``p ≤ k`` as well, so the start token is never a target. ``tokens`` is not changed.
    Introduced in notebook 13.

    Parameters
    ----------
    tokens : int array, shape (sequences, n)
        Token ids, ``n > k + 1``.
    start : int
        The start token's id, non-negative.
    offset : int
        ``k ≥ 1``.

    Returns
    -------
    tokens, targets : np.ndarray
        Both ``(sequences, n)`` int64.
    """
    tokens = _check_tokens(tokens).copy()
    start = check_count(start, "start")
    offset = check_positive_count(offset, "offset")
    if offset + 1 >= tokens.shape[1]:
        raise ValueError(
            f"offset (k = {offset}) must be smaller than the sequence length minus one, "
            f"n − 1 = {tokens.shape[1] - 1}: with the start token at p = 0 no position would have a target"
        )
    tokens[:, 0] = start
    targets = look_back_targets(tokens, offset)
    targets[:, : offset + 1] = NO_TARGET
    return tokens, targets
