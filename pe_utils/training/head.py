"""One causal attention head whose values are one-hot tokens (notebook 10): its inputs, scores, attention,
output and predictions; four ways to give it positions (``VARIANTS``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from .._checks import (
    check_base,
    check_choice,
    check_count,
    check_matrix,
    check_positive_count,
    check_proportion,
    check_table_size,
)
from ..encoding import sinusoidal_pe
from ..frequency_use import p_rope_frequencies
from .task import NO_TARGET, _check_tokens, _check_vocab_size

#: The four ways of giving the head positions, in the order notebook 10 trains them.
VARIANTS: tuple[str, ...] = ("none", "sinusoidal", "learned", "rope")


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


# How a head sees positions: the one place that says what each variant does. A new variant needs
# its name in VARIANTS, its arrays in LookBackHead and init_head, and a branch in these two
# functions: what it adds to E[t_p], and how it turns queries and keys. A rotation that depends on
# more than (variant, base, d_k, n), such as partial RoPE's share of rotated pairs, becomes one
# more argument of _phases (it is cached on its arguments). The loss, its gradient (gradient.py),
# the outputs and training (train.py) use only these two functions, so they follow unchanged.


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
