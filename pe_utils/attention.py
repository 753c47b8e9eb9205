"""Permutations, single-head self-attention and an encoder block (notebook 01).

Notebook 01 uses these to show that self-attention is permutation
*equivariant*: ``self_attention(P @ X) == P @ self_attention(X)`` when the
same weights are used on both sides, and that a whole encoder block
(attention, residual, LayerNorm, feed-forward), stacked, stays equivariant.
"""

from __future__ import annotations

import numbers
import zlib
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from ._checks import (
    _is_integer,
    check_count,
    check_finite_array,
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


def layer_norm(X: Any, gain: Any = None, bias: Any = None, *, eps: float = 1e-5) -> np.ndarray:
    """Normalise every row of ``X`` on its own: ``(x − mean x) / √(var x + eps) · gain + bias``.

    The mean and the (biased) variance are taken over the ``d`` features of one
    row, so each token is normalised without looking at the others: a
    per-token function. Introduced in notebook 01.

    Parameters
    ----------
    X : array, shape (n, d)
        One row per token, ``d ≥ 1``.
    gain, bias : array, shape (d,), optional
        Learned scale and shift; default ones and zeros.
    eps : float
        Positive number added to the variance.

    Returns
    -------
    np.ndarray
        ``(n, d)`` float64 array.
    """
    X = check_matrix(X, "X")
    d = X.shape[1]
    if d == 0:
        raise ValueError(f"X must have at least one column (feature), got shape {X.shape}")
    gain = np.ones(d) if gain is None else _check_vector(gain, "gain", d)
    bias = np.zeros(d) if bias is None else _check_vector(bias, "bias", d)
    if isinstance(eps, (bool, np.bool_)) or not isinstance(eps, numbers.Real):
        raise TypeError(f"eps must be a positive real number, got {eps!r}")
    if not np.isfinite(eps) or eps <= 0:
        raise ValueError(f"eps must be a positive finite number, got {eps}")
    mean = X.mean(axis=1, keepdims=True)
    variance = X.var(axis=1, keepdims=True)
    return (X - mean) / np.sqrt(variance + eps) * gain + bias


def feed_forward(X: Any, W_1: Any, b_1: Any, W_2: Any, b_2: Any) -> np.ndarray:
    """Position-wise feed-forward layer ``max(0, X W_1 + b_1) W_2 + b_2``.

    The same two affine maps with a ReLU between them act on every row on its
    own: a per-token function. Introduced in notebook 01.

    Parameters
    ----------
    X : array, shape (n, d)
    W_1 : array, shape (d, d_ff)
    b_1 : array, shape (d_ff,)
    W_2 : array, shape (d_ff, d_out)
    b_2 : array, shape (d_out,)

    Returns
    -------
    np.ndarray
        ``(n, d_out)`` float64 array.
    """
    X = check_matrix(X, "X")
    W_1 = check_matrix(W_1, "W_1")
    W_2 = check_matrix(W_2, "W_2")
    if W_1.shape[0] != X.shape[1]:
        raise ValueError(
            f"W_1 must have {X.shape[1]} rows to match X of shape {X.shape}, got shape {W_1.shape}"
        )
    if W_2.shape[0] != W_1.shape[1]:
        raise ValueError(
            f"W_2 must have {W_1.shape[1]} rows to match W_1 of shape {W_1.shape}, got shape {W_2.shape}"
        )
    b_1 = _check_vector(b_1, "b_1", W_1.shape[1])
    b_2 = _check_vector(b_2, "b_2", W_2.shape[1])
    return np.maximum(X @ W_1 + b_1, 0.0) @ W_2 + b_2


class EncoderWeights(NamedTuple):
    """The fixed parameters of one encoder block (see :func:`encoder_block`).

    ``W_q, W_k`` are ``(d, d_k)``, ``W_v`` is ``(d, d)`` so that the residual
    ``X + Attn(X)`` adds matching shapes, ``W_1`` is ``(d, d_ff)``, ``W_2`` is
    ``(d_ff, d)``; gains, biases and ``b_2`` have length ``d``, ``b_1`` length
    ``d_ff``. Introduced in notebook 01.
    """

    W_q: np.ndarray
    W_k: np.ndarray
    W_v: np.ndarray
    gain_1: np.ndarray
    bias_1: np.ndarray
    W_1: np.ndarray
    b_1: np.ndarray
    W_2: np.ndarray
    b_2: np.ndarray
    gain_2: np.ndarray
    bias_2: np.ndarray


def encoder_weights(d_model: int, d_ff: int | None = None, *, seed: int = 0) -> EncoderWeights:
    """Return one fixed set of encoder-block weights, drawn by ``default_rng(seed)``.

    The attention weights are :func:`fixed_weights` ``(d_model, seed=seed)``;
    ``W_1, W_2`` have entries from ``N(0, 1/fan_in)``; the biases from
    ``N(0, 0.1²)``; the LayerNorm gains from ``N(1, 0.1²)`` and its biases
    from ``N(0, 0.1²)``, so that none of them is trivially 1 or 0.
    Introduced in notebook 01.

    Parameters
    ----------
    d_model : int
        Features per token, ``d_model ≥ 1``.
    d_ff : int, optional
        Hidden width of the feed-forward layer, ``d_ff ≥ 1``; default ``4 · d_model``.
    seed : int
        Non-negative seed; two blocks with different seeds have different weights.

    Returns
    -------
    EncoderWeights
    """
    d_model = check_positive_count(d_model, "d_model")
    d_ff = 4 * d_model if d_ff is None else check_positive_count(d_ff, "d_ff")
    seed = check_count(seed, "seed")
    check_table_size((d_model, d_ff), np.float64, name="feed-forward weight matrix")
    W_q, W_k, W_v = fixed_weights(d_model, seed=seed)
    # A second generator, seeded apart from fixed_weights' own, for the other parameters.
    rng = np.random.default_rng([seed, 1])
    return EncoderWeights(
        W_q=W_q,
        W_k=W_k,
        W_v=W_v,
        gain_1=rng.normal(1.0, 0.1, size=d_model),
        bias_1=rng.normal(0.0, 0.1, size=d_model),
        W_1=rng.normal(scale=1 / np.sqrt(d_model), size=(d_model, d_ff)),
        b_1=rng.normal(0.0, 0.1, size=d_ff),
        W_2=rng.normal(scale=1 / np.sqrt(d_ff), size=(d_ff, d_model)),
        b_2=rng.normal(0.0, 0.1, size=d_model),
        gain_2=rng.normal(1.0, 0.1, size=d_model),
        bias_2=rng.normal(0.0, 0.1, size=d_model),
    )


def encoder_block(X: Any, weights: EncoderWeights, *, causal: bool = False) -> np.ndarray:
    """One Transformer encoder block with a single head, in the paper's post-norm order.

    ``H = LayerNorm(X + Attn(X))`` and ``out = LayerNorm(H + FFN(H))``, with
    ``Attn`` :func:`self_attention`, ``FFN`` :func:`feed_forward` and each
    ``LayerNorm`` :func:`layer_norm` with its own gain and bias ("the output of
    each sub-layer is LayerNorm(x + Sublayer(x))", Vaswani et al. 2017, §3.1).
    Everything but the attention acts on each row alone, so with fixed
    weights and ``causal=False`` the block is permutation equivariant.
    Introduced in notebook 01.

    Parameters
    ----------
    X : array, shape (n, d)
    weights : EncoderWeights
        From :func:`encoder_weights`, with ``d = d_model``.
    causal : bool
        Mask the attention as :func:`self_attention` does.

    Returns
    -------
    np.ndarray
        ``(n, d)`` float64 array.
    """
    if not isinstance(weights, EncoderWeights):
        raise TypeError(
            f"weights must be an EncoderWeights (from encoder_weights), got {type(weights).__name__}"
        )
    X = check_matrix(X, "X")
    W_v = check_matrix(weights.W_v, "weights.W_v")
    d = W_v.shape[0]
    if W_v.shape != (d, d):
        raise ValueError(f"weights.W_v must be square (d_model × d_model), got shape {W_v.shape}")
    if X.shape[1] != d:
        raise ValueError(f"X must have {d} columns to match the weights (d_model = {d}), got shape {X.shape}")
    attended = self_attention(X, weights.W_q, weights.W_k, weights.W_v, causal=causal)
    hidden = layer_norm(X + attended, weights.gain_1, weights.bias_1)
    transformed = feed_forward(hidden, weights.W_1, weights.b_1, weights.W_2, weights.b_2)
    return layer_norm(hidden + transformed, weights.gain_2, weights.bias_2)


def _check_vector(values: Any, name: str, length: int) -> np.ndarray:
    array = check_finite_array(values, name)
    if array.shape != (length,):
        raise ValueError(f"{name} must be a 1-D array of length {length}, got shape {array.shape}")
    return array
