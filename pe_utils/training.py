"""A head that learns to look back (notebook 10).

The task: a sequence of random tokens ``t_0 … t_{n−1}``; at every position
``p ≥ k`` the target is ``t_{p−k}``, the token ``k`` places back (positions
``p < k`` have no target and are left out of the loss).

The model: one causal attention head. Its values are the tokens' one-hot
vectors, so its output at ``p`` is a probability distribution over the
vocabulary, ``o_p[v] = Σ_{q ≤ p, t_q = v} A_pq``. Only the query and key maps
are trained (and, for the ``"learned"`` variant, the position table). With
``x_p`` the input row of position ``p`` and ``s_pq = q_p · k_q / √d_k``::

    A_pq = exp(s_pq) / Σ_{r ≤ p} exp(s_pr),      loss_p = −log o_p[t_{p−k}].

The gradient with respect to the scores is ``∂loss_p/∂s_pq = A_pq − R_pq``,
where ``R_pq = A_pq [t_q = t_{p−k}] / o_p[t_{p−k}]`` is the attention restricted
to the keys that carry the target token, renormalised; the bilinear score
passes it on to the query and key maps (``look_back_loss_and_gradient``).

Four ways to give the head positions (``VARIANTS``):

- ``"none"``        ``x_p = E[t_p]``, no positional information;
- ``"sinusoidal"``  ``x_p = E[t_p] + PE(p)``, the paper's additive encoding;
- ``"learned"``     ``x_p = E[t_p] + P[p]``, a trained table with one row per
  trained position (no rows beyond it);
- ``"rope"``        ``q_p = rope(x_p W_q, p)``, ``k_q = rope(x_q W_k, q)`` with
  ``x_p = E[t_p]``.

``E`` is a fixed random token embedding (not trained). Introduced in
notebook 10.

p-RoPE (notebook 13): a ``"rope"`` head with ``rope_proportion = p < 1``
rotates only its fastest ``K = int(p·d_k // 2)`` pairs and leaves the others
unrotated (Barbero et al. 2024, arXiv:2410.06205; frequencies from
:func:`pe_utils.frequency_use.p_rope_frequencies`). ``p = 1`` is the RoPE head of
notebook 10, ``p = 0`` a head with no positions.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from ._checks import (
    check_base,
    check_choice,
    check_count,
    check_finite_array,
    check_matrix,
    check_positive_count,
    check_positive_real,
    check_proportion,
    check_table_size,
)
from .encoding import sinusoidal_pe
from .frequency_use import p_rope_frequencies
from .similarity import commuting_part

#: The four ways of giving the head positions, in the order notebook 10 trains them.
VARIANTS: tuple[str, ...] = ("none", "sinusoidal", "learned", "rope")

#: Marks a position that has no target (``p < k``) in the array of targets.
NO_TARGET: int = -1
#: The most Adam steps ``train_head`` takes (notebook 10 uses 100).
MAX_STEPS: int = 100_000


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


# --- notebook 10's recipe: the task's sizes, the training data, the optimiser, the test sets --------
# Notebook 13 and tools/sweep_13.py train and test the same heads; they take these from here.


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


def _check_vocab_size(vocab_size: Any) -> int:
    vocab_size = check_count(vocab_size, "vocab_size")
    if vocab_size < 2:
        raise ValueError(f"vocab_size must be at least 2 tokens, got {vocab_size}")
    return vocab_size


@dataclass(frozen=True)
class LookBackHead:
    """One causal attention head with one-hot values, and how it sees positions.

    Attributes
    ----------
    variant : str
        One of :data:`VARIANTS`.
    embeddings : np.ndarray, shape (vocab_size, d_model)
        Fixed token embeddings ``E`` (not trained).
    W_q, W_k : np.ndarray, shape (d_model, d_k)
        The query and key maps (trained).
    positions : np.ndarray or None, shape (n_trained, d_model)
        The position table of the ``"learned"`` variant (trained); ``None`` otherwise.
    base : float
        Base of the sinusoidal encoding and of RoPE.
    rope_proportion : float
        ``p`` in ``[0, 1]``: the share of pairs a ``"rope"`` head rotates, the fastest
        ``int(p·d_k // 2)`` (p-RoPE, notebook 13); 1 (all pairs) by default, and for every
        other variant.

    Introduced in notebook 10 (``rope_proportion`` in notebook 13).
    """

    variant: str
    embeddings: np.ndarray
    W_q: np.ndarray
    W_k: np.ndarray
    positions: np.ndarray | None = None
    base: float = 10000.0
    rope_proportion: float = 1.0
    trainable: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        check_choice(self.variant, VARIANTS, "variant")
        object.__setattr__(
            self, "trainable", ("W_q", "W_k", "positions") if self.variant == "learned" else ("W_q", "W_k")
        )
        if (self.variant == "learned") != (self.positions is not None):
            raise ValueError("positions must be a table for variant 'learned' and None for the others")
        embeddings = check_matrix(self.embeddings, "embeddings")
        d_model = embeddings.shape[1]
        if embeddings.shape[0] < 2 or d_model == 0 or d_model % 2:
            raise ValueError(
                "embeddings must have at least 2 rows (tokens) and an even, positive number of "
                f"columns (d_model), got shape {embeddings.shape}"
            )
        W_q, W_k = check_matrix(self.W_q, "W_q"), check_matrix(self.W_k, "W_k")
        if W_q.shape[0] != d_model or W_q.shape[1] == 0 or W_k.shape != W_q.shape:
            raise ValueError(
                f"W_q and W_k must both have shape (d_model, d_k) = ({d_model}, d_k ≥ 1), "
                f"got {W_q.shape} and {W_k.shape}"
            )
        if self.variant == "rope" and W_q.shape[1] % 2:
            raise ValueError(f"W_q must have an even number of columns for variant 'rope', got {W_q.shape}")
        arrays = {"embeddings": embeddings, "W_q": W_q, "W_k": W_k}
        if self.positions is not None:
            table = check_matrix(self.positions, "positions")
            if table.shape[1] != d_model or table.shape[0] == 0:
                raise ValueError(f"positions must have shape (n_positions ≥ 1, {d_model}), got {table.shape}")
            arrays["positions"] = table
        for name, array in arrays.items():
            object.__setattr__(self, name, array)
        object.__setattr__(self, "base", check_base(self.base))
        proportion = check_proportion(self.rope_proportion, "rope_proportion")
        if self.variant != "rope" and proportion != 1.0:
            raise ValueError(
                f"rope_proportion applies to variant 'rope' only (p-RoPE), got {proportion} for "
                f"variant {self.variant!r}"
            )
        object.__setattr__(self, "rope_proportion", proportion)

    @property
    def vocab_size(self) -> int:
        return self.embeddings.shape[0]

    @property
    def d_model(self) -> int:
        return self.embeddings.shape[1]

    def parameters(self) -> dict[str, np.ndarray]:
        """The trained arrays by name."""
        return {name: getattr(self, name) for name in self.trainable}


def init_head(
    variant: str,
    vocab_size: int,
    d_model: int,
    *,
    d_k: int | None = None,
    n_positions: int | None = None,
    base: float = 10000.0,
    rope_proportion: float = 1.0,
    seed: int = 0,
) -> LookBackHead:
    """Return an untrained head: random ``E``, ``W_q``, ``W_k`` (and position table).

    ``E`` has entries ``N(0, 1/2)`` so that ``‖E[v]‖² ≈ d/2 = ‖PE(p)‖²``;
    ``W_q``, ``W_k`` and a learned table have entries ``N(0, 1/d)``. All are
    drawn by ``np.random.default_rng(seed)``, the embeddings first, so the four
    variants with one seed share the same token embeddings. Introduced in
    notebook 10.

    Parameters
    ----------
    variant : str
        One of :data:`VARIANTS`.
    vocab_size : int
        At least 2.
    d_model : int
        Even and positive (the encoding pairs up dimensions).
    d_k : int, optional
        Columns of the query and key maps; ``d_model`` by default (RoPE needs it even).
    n_positions : int, optional
        Rows of the learned table; required for ``"learned"`` only.
    base : float
        Greater than 1.
    rope_proportion : float
        For ``"rope"``: the share ``p`` of pairs rotated (p-RoPE, notebook 13), 1 by
        default; it changes no random draw, so a p-RoPE head starts from the weights of
        the RoPE head with the same seed.
    seed : int
        Non-negative.
    """
    variant = check_choice(variant, VARIANTS, "variant")
    rope_proportion = check_proportion(rope_proportion, "rope_proportion")
    if variant != "rope" and rope_proportion != 1.0:
        raise ValueError(f"rope_proportion applies to variant 'rope' only (p-RoPE), got variant {variant!r}")
    vocab_size = _check_vocab_size(vocab_size)
    d_model = check_positive_count(d_model, "d_model")
    if d_model % 2:
        raise ValueError(f"d_model must be even (one sin and one cos per pair), got {d_model}")
    d_k = d_model if d_k is None else check_positive_count(d_k, "d_k")
    if variant == "rope" and d_k % 2:
        raise ValueError(f"d_k must be even for variant 'rope' (RoPE rotates pairs), got {d_k}")
    if variant == "learned":
        if n_positions is None:
            raise ValueError("n_positions must be given for variant 'learned' (rows of its table)")
        n_positions = check_positive_count(n_positions, "n_positions")
    base = check_base(base)
    seed = check_count(seed, "seed")
    check_table_size(
        (max(vocab_size, d_model, n_positions or 0), max(d_model, d_k)), np.float64, name="head parameters"
    )
    rng = np.random.default_rng(seed)
    embeddings = rng.normal(scale=np.sqrt(0.5), size=(vocab_size, d_model))
    scale = 1.0 / np.sqrt(d_model)
    W_q = rng.normal(scale=scale, size=(d_model, d_k))
    W_k = rng.normal(scale=scale, size=(d_model, d_k))
    table = rng.normal(scale=scale, size=(n_positions, d_model)) if variant == "learned" else None
    return LookBackHead(variant, embeddings, W_q, W_k, table, base, rope_proportion)


def _check_head(head: Any) -> LookBackHead:
    if not isinstance(head, LookBackHead):
        raise TypeError(f"head must be a LookBackHead (see init_head), got {type(head).__name__}")
    return head


# --- how a head sees positions: the one place that says what each variant does ---------------
# A new variant needs its name in VARIANTS, its arrays in LookBackHead and init_head, and a branch in
# these two functions: what it adds to E[t_p], and how it turns queries and keys. A rotation that
# depends on more than (variant, base, d_k, n), such as partial RoPE's share of rotated pairs,
# becomes one more argument of _phases (it is cached on its arguments). The loss, its gradient,
# the outputs and training use only these two functions, so they follow unchanged.


def _added_positions(head: LookBackHead, n: int, positions: np.ndarray | None) -> np.ndarray | None:
    """What the head adds to ``E[t_p]`` at positions ``0 … n−1``: ``PE``, learned rows, or ``None``.

    ``positions`` is the learned table to use (the head's own, or one being trained).
    """
    if head.variant == "sinusoidal":
        return _sinusoidal_table(n, head.d_model, head.base)
    if head.variant == "learned":
        return positions[:n]
    return None


@lru_cache(maxsize=16)
def _sinusoidal_table(n: int, d_model: int, base: float) -> np.ndarray:
    """``sinusoidal_pe(n, d_model, base=base)``, cached: training adds it at every step."""
    table = sinusoidal_pe(n, d_model, base=base)
    table.flags.writeable = False
    return table


@lru_cache(maxsize=16)
def _phases(variant: str, base: float, d_k: int, n: int, rope_proportion: float = 1.0) -> np.ndarray | None:
    """How a head turns the query and key of position ``p``: ``e^{i p ω_j}``, ``(n, d_k/2)``, or ``None``.

    A row ``u`` at position ``p``, read as ``d_k/2`` complex numbers ``u_2j + i u_2j+1``, becomes
    ``u_j e^{i p ω_j}``: pair ``j`` turned by ``p ω_j``, which is ``u @ shift_matrix(p)`` and
    ``rope(u, p)`` (notebook 08: ``R_p = T_{−p}``, written for row vectors). p-RoPE
    (``rope_proportion < 1``, notebook 13) gives the pairs it leaves unrotated frequency 0, as
    ``p_rope_frequencies`` does: phase 1.
    """
    if variant != "rope":
        return None
    angles = np.arange(n)[:, None] * p_rope_frequencies(d_k, rope_proportion, base=base)
    phases = np.cos(angles) + 1j * np.sin(angles)
    phases.flags.writeable = False  # cached: shared by every call
    return phases


def _rotate(rows: np.ndarray, phases: np.ndarray | None, *, back: bool = False) -> np.ndarray:
    """``rows[:, p] @ R_p``, or ``@ R_pᵀ`` (the inverse) with ``back``; rows ``(sequences, n, d_k)``.

    One complex product per pair (``R_pᵀ`` turns by ``−p ω_j``: the conjugate phase): three to four
    times quicker than ``n`` products with ``d_k × d_k`` matrices (measured, d_k = 16 and 32).
    """
    if phases is None:
        return rows
    pairs = np.ascontiguousarray(rows).view(np.complex128)
    return (pairs * (phases.conj() if back else phases)).view(np.float64)


def _forward(
    head: LookBackHead, tokens: np.ndarray, parameters: dict[str, np.ndarray]
) -> tuple[np.ndarray, ...]:
    """Added positions, phases, rotated queries and keys, and the causal scores (``−inf`` for ``q > p``).

    ``tokens`` are checked, ``(sequences, n)``; ``parameters`` are the trained arrays to use.
    ``x_p W = E[t_p] W + P[p] W``: the ``V`` token rows and ``n`` position rows are projected once,
    then gathered, instead of projecting every (sequence, position) row.
    """
    n = tokens.shape[1]
    added = _added_positions(head, n, parameters.get("positions"))
    W_q, W_k = parameters["W_q"], parameters["W_k"]
    W_q = W_q * (1.0 / np.sqrt(W_q.shape[1]))  # the 1/√d_k of s_pq
    # np.take: three times quicker than indexing with the token array
    queries = np.take(head.embeddings @ W_q, tokens, axis=0)
    keys = np.take(head.embeddings @ W_k, tokens, axis=0)
    if added is not None:
        queries += added @ W_q
        keys += added @ W_k
    phases = _phases(head.variant, head.base, W_k.shape[1], n, head.rope_proportion)
    queries, keys = _rotate(queries, phases), _rotate(keys, phases)
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores += _causal_mask(n)
    return added, phases, queries, keys, scores


@lru_cache(maxsize=16)
def _causal(n: int) -> np.ndarray:
    """True on and below the diagonal: the keys ``q ≤ p`` a query may see."""
    seen = np.tri(n, dtype=bool)
    seen.flags.writeable = False
    return seen


@lru_cache(maxsize=16)
def _causal_mask(n: int) -> np.ndarray:
    """0 on and below the diagonal, ``−inf`` above it (keys after the query)."""
    mask = np.where(_causal(n), 0.0, -np.inf)
    mask.flags.writeable = False
    return mask


def _exp_shifted(scores: np.ndarray) -> np.ndarray:
    """``exp(s − max_row s)``: the softmax numerators, with no overflow; 0 above the diagonal.

    Only the causal entries ``q ≤ p`` are exponentiated (the others are ``exp(−∞) = 0``):
    about half the work for the ``n × n`` scores.
    """
    shifted = scores - _row_max(scores)
    return np.exp(shifted, out=np.zeros_like(shifted), where=_causal(shifted.shape[-1]))


def _row_max(rows: np.ndarray) -> np.ndarray:
    """``rows.max(axis=-1, keepdims=True)``, by taking the larger of each even and odd entry.

    The same numbers (a maximum is exact), three times quicker for rows of 16: NumPy reduces a
    short last axis one row at a time, while the even and odd entries of a contiguous array
    are each one strided run.
    """
    while (length := rows.shape[-1]) > 1:
        pairs = np.maximum(rows[..., 0 : length - 1 : 2], rows[..., 1:length:2])
        rows = pairs if length % 2 == 0 else np.concatenate([pairs, rows[..., -1:]], axis=-1)
    return rows


def _softmax(scores: np.ndarray) -> np.ndarray:
    """Each row's softmax: the attention weights of causal scores."""
    numerators = _exp_shifted(scores)
    return numerators / (numerators @ np.ones(scores.shape[-1]))[..., None]  # row sums, as in training


def _checked(head: Any, tokens: Any) -> tuple[LookBackHead, np.ndarray]:
    """The head and its tokens, checked; refuses sequences longer than a learned table, or too large."""
    head = _check_head(head)
    tokens = _check_tokens(tokens, head.vocab_size)
    n = tokens.shape[1]
    if head.positions is not None and n > head.positions.shape[0]:
        raise ValueError(
            f"tokens of length {n} are longer than the learned position table "
            f"({head.positions.shape[0]} rows): it has no rows for positions ≥ {head.positions.shape[0]}"
        )
    check_table_size(tokens.shape + (max(head.d_model, n),), np.float64, name="attention scores")
    return head, tokens


#: Numbers in the largest array of one part of a batch (128 KiB of float64). Outputs, loss and
#: gradient are computed part by part, whole sequences at a time: bigger temporaries cost up to
#: five times more per number (measured on notebook 10's d = 32 heads and n = 64 tests).
_PART_SIZE: int = 16384


def _parts(head: LookBackHead, tokens: np.ndarray) -> tuple[slice, ...]:
    """Slices of whole sequences whose arrays hold at most ``_PART_SIZE`` numbers each."""
    sequences, n = tokens.shape
    per_part = max(1, _PART_SIZE // (n * max(n, head.d_model, head.W_q.shape[1])))
    return tuple(slice(start, start + per_part) for start in range(0, sequences, per_part))


def head_inputs(head: LookBackHead, tokens: Any) -> np.ndarray:
    """Return the input rows ``x_p`` of every sequence, shape ``(sequences, n, d)``.

    ``E[t_p]``, plus ``PE(p)`` for ``"sinusoidal"`` or ``P[p]`` for
    ``"learned"`` (which refuses sequences longer than its table).
    Introduced in notebook 10.
    """
    head, tokens = _checked(head, tokens)
    added = _added_positions(head, tokens.shape[1], head.positions)
    inputs = head.embeddings[tokens]
    return inputs if added is None else inputs + added


def head_scores(head: LookBackHead, tokens: Any) -> np.ndarray:
    """Return the causal scores ``s_pq = q_p · k_q / √d_k``, ``−inf`` for ``q > p``.

    Shape ``(sequences, n, n)``. Introduced in notebook 10.
    """
    head, tokens = _checked(head, tokens)
    return _forward(head, tokens, head.parameters())[-1]


def head_attention(head: LookBackHead, tokens: Any) -> np.ndarray:
    """Return the attention weights ``A`` (rows sum to 1, zero above the diagonal).

    Shape ``(sequences, n, n)``. Introduced in notebook 10.
    """
    return _softmax(head_scores(head, tokens))


def head_output(head: LookBackHead, tokens: Any) -> np.ndarray:
    """Return ``o_p[v] = Σ_{q ≤ p, t_q = v} A_pq``: the attention-weighted one-hot values.

    Shape ``(sequences, n, vocab_size)``; every ``o_p`` is a probability
    distribution. Introduced in notebook 10.
    """
    head, tokens = _checked(head, tokens)
    one_hot, outputs = np.eye(head.vocab_size), []
    for part in _parts(head, tokens):
        weights = _softmax(_forward(head, tokens[part], head.parameters())[-1])
        outputs.append(weights @ np.take(one_hot, tokens[part], axis=0))
    return np.concatenate(outputs)


def _check_targets(targets: Any, tokens: np.ndarray, vocab_size: int) -> np.ndarray:
    array = np.asarray(targets)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"targets must be an integer array of token ids, got dtype {array.dtype}")
    if array.shape != tokens.shape:
        raise ValueError(f"targets must have the shape of tokens {tokens.shape}, got {array.shape}")
    if np.any((array < NO_TARGET) | (array >= vocab_size)):
        raise ValueError(f"targets must be token ids 0 … {vocab_size - 1} or {NO_TARGET} (no target)")
    if not np.any(array != NO_TARGET):
        raise ValueError("targets must have at least one position with a target (all were -1)")
    return array.astype(np.int64, copy=False)


#: Outputs within this of the largest ``o_p[v]`` count as tied with it (see :func:`look_back_predictions`).
TIE_TOLERANCE: float = 1e-9


def look_back_predictions(head: LookBackHead, tokens: Any) -> np.ndarray:
    """Return the predicted token at every position: ``argmax_v o_p[v]``.

    A tie goes to the smallest token id. Entries within :data:`TIE_TOLERANCE`
    of the largest count as tied: with uniform attention two tokens seen
    equally often get sums of equal weights that may differ in the last bit,
    depending on the order the CPU adds them, and the tie rule must not
    depend on that. Shape ``(sequences, n)``. Introduced in notebook 10.
    """
    outputs = head_output(head, tokens)
    tied_with_best = outputs >= outputs.max(axis=-1, keepdims=True) - TIE_TOLERANCE
    return np.argmax(tied_with_best, axis=-1)  # the first True: the smallest tied token id


def look_back_accuracy(head: LookBackHead, tokens: Any, targets: Any) -> float:
    """Fraction of positions with a target where ``argmax_v o_p[v]`` is the target.

    Predictions from :func:`look_back_predictions` (a tie, up to
    :data:`TIE_TOLERANCE`, goes to the smallest token id). Introduced in notebook 10.
    """
    head = _check_head(head)
    tokens = _check_tokens(tokens, head.vocab_size)
    targets = _check_targets(targets, tokens, head.vocab_size)
    has_target = targets != NO_TARGET
    predictions = look_back_predictions(head, tokens)
    return float(np.mean(predictions[has_target] == targets[has_target]))


@dataclass(frozen=True)
class _Task:
    """Checked training data, with what the loss needs that does not change from step to step."""

    tokens: np.ndarray  # (sequences, n)
    has_target: np.ndarray  # (sequences, n)
    matches: np.ndarray  # (sequences, n, n): key q ≤ p holds the target of query p
    count: int  # positions with a target: the N of the mean
    parts: tuple[slice, ...]  # the batch in parts of whole sequences (see _PART_SIZE)
    one_hots: tuple[np.ndarray, ...]  # per part, (V, rows): row (sequence, p) holds token v

    @classmethod
    def of(cls, head: LookBackHead, tokens: Any, targets: Any) -> _Task:
        head, tokens = _checked(head, tokens)
        targets = _check_targets(targets, tokens, head.vocab_size)
        has_target = targets != NO_TARGET
        matches = tokens[:, None, :] == targets[:, :, None]
        matches &= np.tri(tokens.shape[1], dtype=bool) & has_target[:, :, None]
        unreachable = has_target & ~matches.any(axis=-1)
        if np.any(unreachable):
            b, p = (int(i) for i in np.argwhere(unreachable)[0])
            raise ValueError(
                f"targets must be tokens the head can see: targets[{b}, {p}] = {int(targets[b, p])} is "
                f"not among tokens[{b}, :{p + 1}], so its loss would be infinite "
                "(use look_back_targets(tokens, k))"
            )
        parts = _parts(head, tokens)
        tokens_first = np.eye(head.vocab_size)[:, tokens]  # (V, sequences, n)
        one_hots = tuple(tokens_first[:, part].reshape(head.vocab_size, -1) for part in parts)
        return cls(tokens, has_target, matches, int(has_target.sum()), parts, one_hots)


#: Below this, the weight on the target's keys is recomputed in log space (see ``_loss_and_gradient``).
_UNDERFLOW: float = 1e-280


def _loss_and_gradient(
    head: LookBackHead, parameters: dict[str, np.ndarray], task: _Task
) -> tuple[float, dict[str, np.ndarray]]:
    """The mean loss and its gradient, for ``head`` with its trained arrays replaced by ``parameters``."""
    loss, gradient = 0.0, {}
    for index, part in enumerate(task.parts):
        part_loss, part_gradient = _part_loss_and_gradient(head, parameters, task, index, part)
        loss += part_loss
        for name, array in part_gradient.items():
            gradient[name] = gradient[name] + array if name in gradient else array
    return loss, gradient


def _part_loss_and_gradient(
    head: LookBackHead, parameters: dict[str, np.ndarray], task: _Task, index: int, part: slice
) -> tuple[float, dict[str, np.ndarray]]:
    """The sequences ``part`` of the batch: their terms of the mean loss and of its gradient."""
    added, phases, queries, keys, scores = _forward(head, task.tokens[part], parameters)
    has_target, matches = task.has_target[part], task.matches[part]
    numerators = _exp_shifted(scores)
    ones = np.ones(scores.shape[-1])  # row sums as products: several times faster
    total = numerators @ ones
    on_target = numerators * matches
    target_total = on_target @ ones
    lost = has_target & (target_total < _UNDERFLOW)
    target_total[~has_target | lost] = 1.0  # placeholders: rows without a target, lost rows
    # −log o_p[y] = log Σ_all − log Σ_target;  ∂/∂s = A − R, R = A on the target's keys, renormalised
    row_loss = np.log(total) - np.log(target_total)
    per_target = has_target / task.count  # each target's share of the mean
    grad_scores = numerators * (per_target / total)[..., None]
    grad_scores -= on_target * (per_target / target_total)[..., None]
    if np.any(lost):
        # the target's weight underflowed: redo those rows in log space, exact however small it is
        matched = np.where(matches[lost], scores[lost], -np.inf)
        largest = matched.max(axis=-1, keepdims=True)
        log_target = largest[..., 0] + np.log(np.sum(np.exp(matched - largest), axis=-1))
        row_loss[lost] = scores[lost].max(axis=-1) + np.log(total[lost]) - log_target
        restricted = np.exp(matched - log_target[..., None])
        grad_scores[lost] = (numerators[lost] / total[lost][:, None] - restricted) / task.count
    loss = float(np.sum(row_loss * has_target)) / task.count

    grad_queries = _rotate(grad_scores @ keys * (1.0 / np.sqrt(queries.shape[-1])), phases, back=True)
    grad_keys = _rotate(np.swapaxes(grad_scores, -1, -2) @ queries, phases, back=True)
    # Σ Xᵀ ∂Q over sequences and positions, with x_p = E[t_p] + P[p]: Eᵀ (∂Q summed over the
    # positions holding each token) + Pᵀ (∂Q summed over sequences); the same for ∂K
    one_hot = task.one_hots[index]  # (V, rows of the part)
    gradient = {}
    for name, grad in (("W_q", grad_queries), ("W_k", grad_keys)):
        by_token = one_hot @ grad.reshape(-1, grad.shape[-1])
        gradient[name] = head.embeddings.T @ by_token
        if added is not None:
            gradient[name] += added.T @ grad.sum(axis=0)
    if "positions" in parameters:
        table_gradient = np.zeros_like(parameters["positions"])
        table_gradient[: added.shape[0]] = (
            grad_queries.sum(axis=0) @ parameters["W_q"].T + grad_keys.sum(axis=0) @ parameters["W_k"].T
        )
        gradient["positions"] = table_gradient
    return loss, gradient


def look_back_loss_and_gradient(
    head: LookBackHead, tokens: Any, targets: Any
) -> tuple[float, dict[str, np.ndarray]]:
    """Return the mean loss ``−log o_p[t_{p−k}]`` and its gradient.

    The mean runs over every sequence and every position with a target. With
    ``G = ∂loss/∂S = (A − R)/N`` (``R`` the attention restricted to the keys
    holding the target, renormalised; ``N`` the number of targets) and
    ``S = Q Kᵀ/√d_k``::

        ∂Q = G K / √d_k,    ∂K = Gᵀ Q / √d_k,
        ∂W_q = Σ Xᵀ ∂Q,     ∂W_k = Σ Xᵀ ∂K,     ∂P = Σ_sequences (∂Q W_qᵀ + ∂K W_kᵀ).

    For ``"rope"`` ``∂Q`` and ``∂K`` are first rotated back by ``−p`` (the
    transpose of the rotation by ``p``). :func:`train_head` runs this same
    computation at every step. Introduced in notebook 10.

    Returns
    -------
    loss : float
    gradient : dict
        One array per name in ``head.trainable``, of that parameter's shape.
    """
    task = _Task.of(head, tokens, targets)
    return _loss_and_gradient(head, head.parameters(), task)


def look_back_loss(head: LookBackHead, tokens: Any, targets: Any) -> float:
    """Return the mean loss ``−log o_p[t_{p−k}]`` over the positions with a target.

    Introduced in notebook 10.
    """
    return look_back_loss_and_gradient(head, tokens, targets)[0]


@dataclass(frozen=True)
class TrainingRun:
    """What :func:`train_head` returns: the trained head and the loss before each step.

    Introduced in notebook 10.
    """

    head: LookBackHead
    losses: np.ndarray


def adam_update(
    parameter: np.ndarray,
    gradient: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    step: int,
    *,
    learning_rate: float,
    beta1: float = 0.9,
    beta2: float = 0.999,
    epsilon: float = 1e-8,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One Adam step (Kingma & Ba, 2015) for one parameter array.

    ``m ← β₁m + (1−β₁)g``, ``v ← β₂v + (1−β₂)g²``,
    ``θ ← θ − η · (m/(1−β₁ᵗ)) / (√(v/(1−β₂ᵗ)) + ε)`` with ``t = step ≥ 1``.
    Returns the new ``(θ, m, v)``; the inputs are not changed. Introduced in
    notebook 10.

    Parameters
    ----------
    parameter, gradient, first, second : arrays of one shape
        ``θ``, ``g``, ``m`` and ``v``; finite.
    step : int
        ``t``, from 1 (the bias correction divides by ``1 − β^t``).
    learning_rate : float
        ``η``, finite and positive.
    beta1, beta2 : float
        In ``[0, 1)``.
    epsilon : float
        Finite and positive.

    Returns
    -------
    (np.ndarray, np.ndarray, np.ndarray)
        The new ``θ``, ``m`` and ``v``.
    """
    step = check_positive_count(step, "step")
    learning_rate = check_positive_real(learning_rate, "learning_rate")
    for beta, name in ((beta1, "beta1"), (beta2, "beta2")):
        if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real) or not 0 <= beta < 1:
            raise ValueError(f"{name} must be a real number in [0, 1), got {beta!r}")
    epsilon = check_positive_real(epsilon, "epsilon")
    parameter = check_finite_array(parameter, "parameter")
    arrays = {"gradient": gradient, "first": first, "second": second}
    for name, array in arrays.items():
        arrays[name] = check_finite_array(array, name)
        if arrays[name].shape != parameter.shape:
            raise ValueError(
                f"{name} must have the shape of parameter, {parameter.shape}, got {arrays[name].shape}"
            )
    return _adam_step(
        parameter,
        arrays["gradient"],
        arrays["first"],
        arrays["second"],
        step,
        learning_rate,
        beta1,
        beta2,
        epsilon,
    )


def _adam_step(
    parameter: np.ndarray,
    gradient: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    step: int,
    learning_rate: float,
    beta1: float = 0.9,
    beta2: float = 0.999,
    epsilon: float = 1e-8,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`adam_update` without the checks (training calls it every step, on checked arrays)."""
    first = beta1 * first + (1.0 - beta1) * gradient
    second = beta2 * second + (1.0 - beta2) * gradient**2
    corrected_first = first / (1.0 - beta1**step)
    corrected_second = second / (1.0 - beta2**step)
    parameter = parameter - learning_rate * corrected_first / (np.sqrt(corrected_second) + epsilon)
    return parameter, first, second


def train_head(
    head: LookBackHead,
    tokens: Any,
    targets: Any,
    *,
    steps: int = 100,
    learning_rate: float = 0.05,
) -> TrainingRun:
    """Train the head's query and key maps (and learned table) with full-batch Adam.

    Every step uses the whole batch, so the run is a deterministic function of
    the head it starts from and the data: the same seeds give the same run.
    Each step is :func:`look_back_loss_and_gradient` followed by
    :func:`adam_update` for every trained array (the data are checked once).
    Introduced in notebook 10.

    Parameters
    ----------
    head : LookBackHead
        The starting point, e.g. from :func:`init_head`; it is not changed.
    tokens, targets : int arrays, shape (sequences, n)
        From :func:`look_back_task`.
    steps : int
        Number of Adam steps, at least 1 (notebook 10 uses 100).
    learning_rate : float
        Finite and positive.

    Returns
    -------
    TrainingRun
        The trained head and the ``steps`` losses measured before each step.
    """
    task = _Task.of(head, tokens, targets)
    steps = check_positive_count(steps, "steps")
    if steps > MAX_STEPS:
        raise ValueError(f"steps must be at most {MAX_STEPS} (full-batch Adam on a small task), got {steps}")
    learning_rate = check_positive_real(learning_rate, "learning_rate")
    parameters = head.parameters()
    first = {name: np.zeros_like(array) for name, array in parameters.items()}
    second = {name: np.zeros_like(array) for name, array in parameters.items()}
    losses = np.empty(steps)
    for step in range(1, steps + 1):
        losses[step - 1], gradient = _loss_and_gradient(head, parameters, task)
        if not np.isfinite(losses[step - 1]):
            raise ValueError(f"training diverged at step {step} (loss is not finite): lower learning_rate")
        for name in parameters:
            parameters[name], first[name], second[name] = _adam_step(
                parameters[name], gradient[name], first[name], second[name], step, learning_rate
            )
    return TrainingRun(replace(head, **parameters), losses)


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


__all__ = [
    "NO_TARGET",
    "SIZES",
    "TEST_LENGTHS",
    "TIE_TOLERANCE",
    "TRAINING",
    "VARIANTS",
    "LookBackHead",
    "TaskSizes",
    "TrainingRun",
    "adam_update",
    "commuting_share",
    "head_attention",
    "head_inputs",
    "head_output",
    "head_scores",
    "init_head",
    "look_back_accuracy",
    "look_back_loss",
    "look_back_loss_and_gradient",
    "look_back_predictions",
    "look_back_targets",
    "look_back_task",
    "look_back_test_sets",
    "offset_terms",
    "train_head",
    "training_data",
    "with_start_token",
]
