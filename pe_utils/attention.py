"""Permutations and single-head self-attention (notebook 01).

Notebook 01 uses these to show that self-attention is permutation
*equivariant*: ``self_attention(P @ X) == P @ self_attention(X)`` when the
same weights are used on both sides.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Any

import numpy as np

from ._checks import (
    _is_integer,
    check_count,
    check_matrix,
    check_positive_count,
    check_real_array,
    check_table_size,
)


def permutation_matrix(order: Any) -> np.ndarray:
    """Return the permutation matrix that puts the rows of ``X`` in ``order``.

    ``P[r, order[r]] = 1`` and every other entry is 0, so
    ``(P @ X)[r] = X[order[r]]``. ``P`` is orthogonal: ``P.T @ P = I``.
    Introduced in notebook 01.

    Parameters
    ----------
    order : sequence of int
        A permutation of ``0 … n−1``: each index exactly once.

    Returns
    -------
    np.ndarray
        ``(n, n)`` float64 array of zeros and ones.
    """
    order_array = np.asarray(order)
    if order_array.ndim != 1:
        raise ValueError(f"order must be a 1-D sequence of indices, got shape {order_array.shape}")
    if order_array.size and not all(_is_integer(value) for value in order_array.tolist()):
        raise TypeError(f"order must contain integers, got dtype {order_array.dtype}")
    n = order_array.size
    order_array = order_array.astype(np.int64)
    if np.any((order_array < 0) | (order_array >= n)):
        raise ValueError(f"order must contain only indices 0 … {n - 1}, got {order_array.tolist()}")
    if np.unique(order_array).size != n:
        raise ValueError(f"order must use each index exactly once, got repeats in {order_array.tolist()}")
    check_table_size((n, n), np.float64, name="permutation matrix")
    matrix = np.zeros((n, n))
    matrix[np.arange(n), order_array] = 1.0
    return matrix


def softmax(scores: Any, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax ``exp(s − max s) / Σ exp(s − max s)`` along ``axis``.

    Entries equal to ``-inf`` (masked scores) get weight 0; every slice along
    ``axis`` needs at least one score above ``-inf``. Introduced in notebook 01.

    Parameters
    ----------
    scores : array_like of float
        At least 1-D; finite numbers or ``-inf``.
    axis : int
        The axis whose slices become probability distributions.

    Returns
    -------
    np.ndarray
        Float64 array of the shape of ``scores``; slices along ``axis`` sum to 1.
    """
    scores = check_real_array(scores, "scores")
    if scores.ndim == 0:
        raise ValueError("scores must have at least one axis, got a scalar")
    if not _is_integer(axis) or not -scores.ndim <= axis < scores.ndim:
        raise ValueError(f"axis must be an integer in {-scores.ndim} … {scores.ndim - 1}, got {axis!r}")
    if np.any(np.isnan(scores) | (scores == np.inf)):
        raise ValueError("scores must be finite numbers or -inf (masked), got NaN or +inf")
    if scores.size == 0:
        return scores.copy()
    largest = np.max(scores, axis=axis, keepdims=True)
    if np.any(largest == -np.inf):
        raise ValueError("scores must have at least one entry above -inf in every slice along axis")
    weights = np.exp(scores - largest)
    return weights / np.sum(weights, axis=axis, keepdims=True)


def _check_attention_inputs(X: Any, W_q: Any, W_k: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X = check_matrix(X, "X")
    W_q = check_matrix(W_q, "W_q")
    W_k = check_matrix(W_k, "W_k")
    d_in = X.shape[1]
    for name, weight in (("W_q", W_q), ("W_k", W_k)):
        if weight.shape[0] != d_in:
            raise ValueError(
                f"{name} must have {d_in} rows to match X of shape {X.shape}, got shape {weight.shape}"
            )
    if W_q.shape[1] == 0:
        raise ValueError(f"W_q must have at least one column (d_k ≥ 1), got shape {W_q.shape}")
    if W_q.shape != W_k.shape:
        raise ValueError(f"W_k must have the shape of W_q {W_q.shape}, got shape {W_k.shape}")
    return X, W_q, W_k


def attention_weights(X: Any, W_q: Any, W_k: Any, *, causal: bool = False) -> np.ndarray:
    """Return the attention matrix ``A = softmax(Q Kᵀ / √d_k)`` of one head.

    ``Q = X W_q`` and ``K = X W_k``; row ``r`` of ``A`` says how much token ``r``
    attends to each token. With ``causal=True`` token ``r`` sees only tokens
    ``0 … r``. Introduced in notebook 01.

    Parameters
    ----------
    X : array, shape (n, d)
        One row per token.
    W_q, W_k : array, shape (d, d_k)
        Fixed query and key weights.
    causal : bool
        Mask out the scores of later tokens.

    Returns
    -------
    np.ndarray
        ``(n, n)`` array whose rows sum to 1.
    """
    X, W_q, W_k = _check_attention_inputs(X, W_q, W_k)
    if not isinstance(causal, (bool, np.bool_)):
        raise TypeError(f"causal must be True or False, got {causal!r}")
    n = X.shape[0]
    check_table_size((n, n), np.float64, name="attention matrix")
    scores = (X @ W_q) @ (X @ W_k).T / np.sqrt(W_q.shape[1])
    if causal:
        scores = np.where(np.tri(n, dtype=bool), scores, -np.inf)
    return softmax(scores, axis=-1)


def self_attention(X: Any, W_q: Any, W_k: Any, W_v: Any, *, causal: bool = False) -> np.ndarray:
    """Return the output ``A V`` of one self-attention head with fixed weights.

    ``A = softmax(X W_q (X W_k)ᵀ / √d_k)`` and ``V = X W_v``. Because the
    weights are fixed arguments, ``self_attention(P @ X, …) = P @
    self_attention(X, …)`` for every permutation matrix ``P``, unless
    ``causal=True``. Introduced in notebook 01.

    Parameters
    ----------
    X : array, shape (n, d)
    W_q, W_k : array, shape (d, d_k)
    W_v : array, shape (d, d_v)
    causal : bool
        Token ``r`` attends only to tokens ``0 … r``.

    Returns
    -------
    np.ndarray
        ``(n, d_v)`` array, one output row per token.
    """
    X, W_q, W_k = _check_attention_inputs(X, W_q, W_k)
    W_v = check_matrix(W_v, "W_v")
    if W_v.shape[0] != X.shape[1]:
        raise ValueError(
            f"W_v must have {X.shape[1]} rows to match X of shape {X.shape}, got shape {W_v.shape}"
        )
    return attention_weights(X, W_q, W_k, causal=causal) @ (X @ W_v)


def fixed_weights(
    d_model: int, d_k: int | None = None, d_v: int | None = None, *, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return one fixed set of weights ``(W_q, W_k, W_v)`` for the course's examples.

    Entries are drawn from ``N(0, 1/d_model)`` by ``np.random.default_rng(seed)``,
    so every notebook that asks for the same sizes and seed gets the same
    weights: notebook 01 checks equivariance with them, notebook 06 shows
    that adding ``PE`` breaks it with the very same ones. Introduced in
    notebook 01.

    Parameters
    ----------
    d_model : int
        Rows of every weight matrix, ``d_model ≥ 1``.
    d_k, d_v : int, optional
        Columns of ``W_q, W_k`` (``d_k ≥ 1``) and of ``W_v`` (``d_v ≥ 0``).
    seed : int
        Non-negative seed of the generator.

    Returns
    -------
    tuple of np.ndarray
        ``W_q, W_k`` of shape ``(d_model, d_k)`` and ``W_v`` of shape
        ``(d_model, d_v)``; ``d_k`` and ``d_v`` default to ``d_model``.
    """
    d_model = check_positive_count(d_model, "d_model")
    d_k = d_model if d_k is None else check_positive_count(d_k, "d_k")
    d_v = d_model if d_v is None else check_count(d_v, "d_v")
    seed = check_count(seed, "seed")
    check_table_size((d_model, max(d_k, d_v)), np.float64, name="weight matrix")
    rng = np.random.default_rng(seed)
    scale = 1.0 / np.sqrt(d_model)
    return (
        rng.normal(scale=scale, size=(d_model, d_k)),
        rng.normal(scale=scale, size=(d_model, d_k)),
        rng.normal(scale=scale, size=(d_model, d_v)),
    )


def token_embeddings(tokens: list[str], d_model: int, *, seed: int = 0) -> np.ndarray:
    """Return one embedding row per token; a word gets the same row wherever it stands.

    Each word's vector is drawn from ``N(0, 1)`` by a generator seeded with
    ``seed`` and the word's CRC-32 checksum, so it depends on the word alone,
    not on its position or on the other words: a stand-in for a learned
    embedding table, used again by notebook 06. Introduced in notebook 01.

    Parameters
    ----------
    tokens : list of str
        The words of the sequence, in order.
    d_model : int
        Entries per row, ``d_model ≥ 0``.
    seed : int
        Non-negative seed shared by all words.

    Returns
    -------
    np.ndarray
        ``(len(tokens), d_model)`` float64 array.
    """
    if isinstance(tokens, str) or not isinstance(tokens, Iterable):
        raise TypeError(f"tokens must be a list of strings, one per word, got {type(tokens).__name__}")
    tokens = list(tokens)
    if not all(isinstance(token, str) for token in tokens):
        raise TypeError("tokens must be a list of strings, one per word")
    d_model = check_count(d_model, "d_model")
    seed = check_count(seed, "seed")
    check_table_size((len(tokens), d_model), np.float64, name="embedding table")
    table = np.empty((len(tokens), d_model))
    for row, token in enumerate(tokens):
        word_seed = [seed, zlib.crc32(token.encode("utf-8"))]
        table[row] = np.random.default_rng(word_seed).normal(size=d_model)
    return table
