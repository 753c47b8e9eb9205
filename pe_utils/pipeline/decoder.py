"""A small causal attention decoder with a KV cache (notebook 11): keys are rotated at their own positions
before they enter the cache, and prefill followed by decode steps equals one pass over the whole sequence.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._checks import (
    _is_integer,
    check_base,
    check_choice,
    check_finite_array,
    check_layout,
    check_positive_count,
    check_table_size,
)
from ..attention import softmax
from ..encoding import encode_positions
from ..rope import check_rotary_dims, rope
from .positions import _check_mask

#: How the decoder puts positions in: rotate queries and keys, add ``PE(p)`` to the
#: token vectors (an absolute encoding), or nothing.
ENCODINGS: tuple[str, ...] = ("rope", "additive", "none")


class DecoderWeights(NamedTuple):
    """Query, key and value weights of one causal attention layer, one slice per head.

    Each of ``W_q, W_k, W_v`` has shape ``(n_heads, d_model, d_head)``: head ``h`` maps a
    token row ``x`` to ``x @ W_q[h]``. Introduced in notebook 11.
    """

    W_q: np.ndarray
    W_k: np.ndarray
    W_v: np.ndarray


class KVCache(NamedTuple):
    """What a decoder keeps of the tokens it has read, per row of the batch.

    ``keys`` and ``values`` have shape ``(batch, n_heads, length, d_head)``; with RoPE the
    keys are stored **rotated**, each at its own position. ``positions`` and ``mask``
    have shape ``(batch, length)``: the position each key was encoded at, and 1 for a
    token, 0 for a padded slot. ``encoding``, ``base``, ``layout`` and ``rotary_dims``
    are the options the keys were made with (:func:`prefill` records them):
    :func:`decode_step` refuses other ones, since a query rotated differently from the
    cached keys gives wrong scores without any error. Introduced in notebook 11.
    """

    keys: np.ndarray
    values: np.ndarray
    positions: np.ndarray
    mask: np.ndarray
    encoding: str = "rope"
    base: float = 10000.0
    layout: str = "interleaved"
    rotary_dims: int | None = None


def decoder_weights(d_model: int, n_heads: int, d_head: int, *, seed: int = 0) -> DecoderWeights:
    """Random weights for :func:`decoder_forward`: entries from ``N(0, 1/d_model)``.

    Drawn by ``np.random.default_rng(seed)`` in the order ``W_q, W_k, W_v``. Introduced
    in notebook 11.

    Parameters
    ----------
    d_model, n_heads, d_head : int
        Positive.
    seed : int
        Non-negative.
    """
    d_model = check_positive_count(d_model, "d_model")
    n_heads = check_positive_count(n_heads, "n_heads")
    d_head = check_positive_count(d_head, "d_head")
    if not _is_integer(seed) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    check_table_size((3, n_heads, d_model, d_head), np.float64, name="decoder weights")
    rng = np.random.default_rng(seed)
    drawn = rng.normal(scale=1.0 / np.sqrt(d_model), size=(3, n_heads, d_model, d_head))
    return DecoderWeights(*drawn)


def _check_weights(weights: Any) -> DecoderWeights:
    if not isinstance(weights, DecoderWeights):
        raise TypeError(
            f"weights must be a pe_utils.DecoderWeights (W_q, W_k, W_v), got {type(weights).__name__}"
        )
    arrays = [
        check_finite_array(array, f"weights.{name}")
        for name, array in zip(weights._fields, weights, strict=True)
    ]
    shape = arrays[0].shape
    if len(shape) != 3 or 0 in shape:
        raise ValueError(f"weights.W_q must have shape (n_heads, d_model, d_head), all positive, got {shape}")
    for name, array in zip(weights._fields[1:], arrays[1:], strict=True):
        if array.shape != shape:
            raise ValueError(f"weights.{name} must have the shape of weights.W_q {shape}, got {array.shape}")
    return DecoderWeights(*arrays)


class _Options(NamedTuple):
    encoding: str
    base: float
    layout: str
    rotary_dims: int | None


def _check_options(
    encoding: Any, base: Any, layout: Any, rotary_dims: Any, d_model: int, d_head: int
) -> _Options:
    encoding = check_choice(encoding, ENCODINGS, "encoding")
    base = check_base(base)
    layout = check_layout(layout)
    if encoding == "rope":
        if d_head % 2:
            raise ValueError(
                f"encoding 'rope' needs an even d_head (pairs of dimensions), got d_head={d_head}"
            )
        if rotary_dims is not None:
            rotary_dims = check_rotary_dims(rotary_dims, d_head, size_name="d_head")
    elif rotary_dims is not None:
        raise ValueError(f"rotary_dims applies to encoding 'rope' only, got encoding={encoding!r}")
    if encoding == "additive" and d_model % 2:
        raise ValueError(
            f"encoding 'additive' needs an even d_model (sin and cos pairs), got d_model={d_model}"
        )
    return _Options(encoding, base, layout, rotary_dims)


def _check_positions(positions: Any, shape: tuple[int, ...], name: str = "positions") -> np.ndarray:
    positions = check_finite_array(positions, name)
    try:
        return np.broadcast_to(positions, shape).astype(np.float64)
    except ValueError:
        raise ValueError(
            f"{name} of shape {positions.shape} do not fit the tokens: expected shape {shape} "
            "(one position per token) or one that broadcasts to it"
        ) from None


def _project(X: np.ndarray, weights: DecoderWeights, positions: np.ndarray, options: _Options):
    """Queries, keys, values ``(batch, heads, n, d_head)`` for tokens ``X (batch, n, d_model)``."""
    if options.encoding == "additive":
        X = X + encode_positions(positions, X.shape[-1], base=options.base)
    Q = np.einsum("bnd,hde->bhne", X, weights.W_q)
    K = np.einsum("bnd,hde->bhne", X, weights.W_k)
    V = np.einsum("bnd,hde->bhne", X, weights.W_v)
    if options.encoding == "rope":  # every head rotates its own queries and keys
        per_head = positions[:, None, :]
        Q = rope(Q, per_head, base=options.base, layout=options.layout, rotary_dims=options.rotary_dims)
        K = rope(K, per_head, base=options.base, layout=options.layout, rotary_dims=options.rotary_dims)
    return Q, K, V


def _attend(Q: np.ndarray, K: np.ndarray, V: np.ndarray, visible: np.ndarray) -> np.ndarray:
    """Softmax attention over the visible keys; a query that sees no key outputs 0.

    ``visible`` is ``(batch, n_q, n_k)``; the result ``(batch, n_q, heads·d_head)``.
    """
    scores = np.einsum("bhqe,bhke->bhqk", Q, K) / np.sqrt(Q.shape[-1])
    seen = visible[:, None, :, :]
    anything = np.any(seen, axis=-1, keepdims=True)
    scores = np.where(seen, scores, -np.inf)
    scores = np.where(anything, scores, 0.0)  # a fully masked row: any finite scores, zeroed below
    weights = softmax(scores, axis=-1) * anything
    out = np.einsum("bhqk,bhke->bqhe", weights, V)
    return out.reshape(out.shape[0], out.shape[1], -1)


def _check_tokens(X: Any) -> np.ndarray:
    X = check_finite_array(X, "X")
    if X.ndim != 3:
        raise ValueError(f"X must be 3-D, shape (batch, n, d_model): one row per token, got shape {X.shape}")
    return X


def _check_allowed(allowed: Any, batch: int, n: int) -> np.ndarray:
    array = np.asarray(allowed)
    if array.dtype != np.bool_:
        raise TypeError(
            f"allowed must be a boolean array (True: the query may see the key), got dtype {array.dtype}"
        )
    if array.shape not in ((n, n), (batch, n, n)):
        raise ValueError(f"allowed must have shape ({n}, {n}) or ({batch}, {n}, {n}), got {array.shape}")
    return np.broadcast_to(array, (batch, n, n))


def decoder_forward(
    X: Any,
    weights: DecoderWeights,
    positions: Any,
    *,
    attention_mask: Any = None,
    allowed: Any = None,
    encoding: str = "rope",
    base: float = 10000.0,
    layout: str = "interleaved",
    rotary_dims: Any = None,
) -> np.ndarray:
    """One causal attention layer over whole sequences: the reference for the KV cache.

    For each head ``h``: ``Q = x W_q[h]``, ``K = x W_k[h]``, ``V = x W_v[h]``, then, by
    ``encoding``:

    - ``"rope"``: ``Q`` and ``K`` rotated at their positions (``pe_utils.rope`` with
      ``base``, ``layout``, ``rotary_dims``); values are not rotated;
    - ``"additive"``: ``PE(p)`` (``encode_positions``) added to ``x`` first, an absolute
      encoding;
    - ``"none"``: positions unused.

    Query ``i`` sees key ``j`` when ``j ≤ i``, ``attention_mask[b, j] == 1`` and
    ``allowed[b, i, j]``; its output is ``softmax(QKᵀ/√d_head) V`` over those keys,
    heads concatenated. A query that sees no key (a padded slot before every token of its
    row) outputs zeros. Introduced in notebook 11.

    Parameters
    ----------
    X : array, shape (batch, n, d_model)
    weights : DecoderWeights
    positions : array_like, shape (batch, n) or broadcastable to it
        One finite position per token.
    attention_mask : array_like of 0 and 1, shape (batch, n), optional
        0 for padded slots (never seen as keys). Default: all ones.
    allowed : bool array, shape (n, n) or (batch, n, n), optional
        An extra restriction, ANDed with causality: :func:`block_causal_mask` for packing.
    encoding : {"rope", "additive", "none"}
    base : float
    layout : {"interleaved", "concatenated"}
        RoPE's pairing.
    rotary_dims : int, optional
        Partial rotary (``"rope"`` only).

    Returns
    -------
    np.ndarray
        ``(batch, n, n_heads·d_head)``.
    """
    X = _check_tokens(X)
    weights = _check_weights(weights)
    batch, n, d_model = X.shape
    n_heads, weight_rows, d_head = weights.W_q.shape
    if weight_rows != d_model:
        raise ValueError(f"weights have d_model = {weight_rows} rows per head, X has d_model = {d_model}")
    options = _check_options(encoding, base, layout, rotary_dims, d_model, d_head)
    # the scores are the largest array: refuse before allocating anything of size n²
    check_table_size((batch, n_heads, n, n), np.float64, name="attention scores")
    positions = _check_positions(positions, (batch, n))
    mask = np.ones((batch, n), dtype=np.int64) if attention_mask is None else _check_mask(attention_mask)
    if mask.shape != (batch, n):
        raise ValueError(
            f"attention_mask must have shape ({batch}, {n}), one entry per token, got {mask.shape}"
        )
    visible = np.tri(n, dtype=bool)[None] & (mask[:, None, :] == 1)
    if allowed is not None:
        visible = visible & _check_allowed(allowed, batch, n)
    Q, K, V = _project(X, weights, positions, options)
    return _attend(Q, K, V, visible)


def prefill(
    X: Any,
    weights: DecoderWeights,
    positions: Any,
    *,
    attention_mask: Any = None,
    encoding: str = "rope",
    base: float = 10000.0,
    layout: str = "interleaved",
    rotary_dims: Any = None,
) -> tuple[np.ndarray, KVCache]:
    """Read a prompt: the outputs of :func:`decoder_forward` and the cache it leaves.

    The cache holds each token's key, rotated at its own position (``"rope"``), and its
    value, with the positions and the mask, ready for :func:`decode_step`. The arguments
    are those of :func:`decoder_forward` (no ``allowed``). Introduced in notebook 11.

    Returns
    -------
    outputs : np.ndarray
        ``(batch, n, n_heads·d_head)``, equal to ``decoder_forward(...)``.
    cache : KVCache
    """
    X = _check_tokens(X)
    weights = _check_weights(weights)
    batch, n, d_model = X.shape
    outputs = decoder_forward(
        X,
        weights,
        positions,
        attention_mask=attention_mask,
        encoding=encoding,
        base=base,
        layout=layout,
        rotary_dims=rotary_dims,
    )
    options = _check_options(encoding, base, layout, rotary_dims, d_model, weights.W_q.shape[2])
    positions = _check_positions(positions, (batch, n))
    mask = np.ones((batch, n), dtype=np.int64) if attention_mask is None else _check_mask(attention_mask)
    _, K, V = _project(X, weights, positions, options)
    return outputs, KVCache(K, V, positions.copy(), mask.copy(), *options)


def _check_cache(cache: Any, batch: int, n_heads: int, d_head: int) -> KVCache:
    if not isinstance(cache, KVCache):
        raise TypeError(
            f"cache must be a pe_utils.KVCache (from prefill or decode_step), got {type(cache).__name__}"
        )
    keys = check_finite_array(cache.keys, "cache.keys")
    values = check_finite_array(cache.values, "cache.values")
    positions = check_finite_array(cache.positions, "cache.positions")
    mask = _check_mask(cache.mask, "cache.mask")
    if keys.ndim != 4 or keys.shape[:2] != (batch, n_heads) or keys.shape[3] != d_head:
        raise ValueError(
            f"cache.keys must have shape (batch, n_heads, length, d_head) = ({batch}, {n_heads}, length, "
            f"{d_head}) for these tokens and weights, got {keys.shape}"
        )
    if values.shape != keys.shape:
        raise ValueError(f"cache.values must have the shape of cache.keys {keys.shape}, got {values.shape}")
    length = keys.shape[2]
    for name, array in (("cache.positions", positions), ("cache.mask", mask)):
        if array.shape != (batch, length):
            raise ValueError(
                f"{name} must have shape (batch, length) = ({batch}, {length}), got {array.shape}"
            )
    return KVCache(keys, values, positions, mask, *cache[4:])


def _check_same_options(cache: KVCache, options: _Options) -> None:
    """Refuse options other than those the cache's keys were made with (argument named)."""
    for name in _Options._fields:
        cached, given = getattr(cache, name), getattr(options, name)
        try:
            same = bool(cached == given)
        except Exception:  # an array or another odd object stored in the cache
            same = False
        if not same:
            raise ValueError(
                f"{name}={given!r} differs from the cache's {name}={cached!r}, the option its keys "
                f"were made with by prefill: pass {name}={cached!r} (a query encoded differently "
                "from the cached keys gives wrong scores)"
            )


def decode_step(
    x: Any,
    weights: DecoderWeights,
    position: Any,
    cache: KVCache,
    *,
    encoding: str = "rope",
    base: float = 10000.0,
    layout: str = "interleaved",
    rotary_dims: Any = None,
) -> tuple[np.ndarray, KVCache]:
    """Read one new token per row against the cache; return its output and the grown cache.

    The new token's key is rotated at ``position`` (``"rope"``) and appended; its query,
    rotated at ``position`` too, attends to every cached token of its row (the mask
    hides padded slots) and to itself. With the same positions, prefill followed by
    decode steps gives the outputs of one :func:`decoder_forward` over the whole
    sequence (to rounding). ``position`` must be greater than every position already
    cached for a token of its row: this toy decoder requires positions that move forward,
    which catches an off-by-one backwards. Real systems break that on purpose: StreamingLLM
    renumbers every cached key, M-RoPE repeats ids, and a right-padded row in
    transformers 5.x restarts at 1 (:func:`positions_from_mask`). The options
    (``encoding``, ``base``, ``layout``, ``rotary_dims``) must be those the cache was
    built with, recorded in it; others are refused. Introduced in notebook 11.

    Parameters
    ----------
    x : array, shape (batch, d_model)
        One new token per row.
    weights : DecoderWeights
    position : array_like, shape (batch,) or a single number
        The new token's position in each row.
    cache : KVCache
        From :func:`prefill` or an earlier :func:`decode_step`, for the same batch and weights.

    Returns
    -------
    output : np.ndarray
        ``(batch, n_heads·d_head)``.
    cache : KVCache
        One slot longer; the input cache is not changed.
    """
    x = check_finite_array(x, "x")
    if x.ndim != 2:
        raise ValueError(f"x must be 2-D, shape (batch, d_model): one new token per row, got shape {x.shape}")
    weights = _check_weights(weights)
    batch, d_model = x.shape
    n_heads, weight_rows, d_head = weights.W_q.shape
    if weight_rows != d_model:
        raise ValueError(f"weights have d_model = {weight_rows} rows per head, x has d_model = {d_model}")
    options = _check_options(encoding, base, layout, rotary_dims, d_model, d_head)
    cache = _check_cache(cache, batch, n_heads, d_head)
    _check_same_options(cache, options)
    position = _check_positions(position, (batch,), "position")
    cached = np.where(cache.mask == 1, cache.positions, -np.inf)
    latest = cached.max(axis=1, initial=-np.inf)
    behind = np.flatnonzero(position <= latest)
    if behind.size:
        row = int(behind[0])
        raise ValueError(
            "position must be greater than every position already in the cache (this toy decoder "
            "requires positions that move forward; real systems such as StreamingLLM or M-RoPE may "
            f"not): row {row} has a token at {latest[row]:g} and got position {position[row]:g}"
        )
    length = cache.keys.shape[2]
    check_table_size((batch, n_heads, length + 1, d_head), np.float64, name="grown cache")
    Q, K, V = _project(x[:, None, :], weights, position[:, None], options)
    keys = np.concatenate([cache.keys, K], axis=2)
    values = np.concatenate([cache.values, V], axis=2)
    mask = np.concatenate([cache.mask, np.ones((batch, 1), dtype=np.int64)], axis=1)
    positions = np.concatenate([cache.positions, position[:, None]], axis=1)
    output = _attend(Q, keys, values, (mask == 1)[:, None, :])[:, 0]
    return output, KVCache(keys, values, positions, mask, *options)
