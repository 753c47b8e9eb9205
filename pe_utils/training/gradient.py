"""The head's loss and its exact gradient (notebook 10): ``∂loss_p/∂s_pq = A_pq − R_pq``, passed on to the
query and key maps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .head import LookBackHead, _check_targets, _checked, _exp_shifted, _forward, _parts, _rotate
from .task import NO_TARGET


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
