"""pe_utils.pipeline (notebook 11): position ids from the mask, a KV-cached decoder, packing, conversion.

Expected values are worked out by hand in the comments, or come from a slow reference written here
from the formula (explicit 2×2 rotations, loops), never from the functions' own output.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pe_utils as pu
from pe_utils.pipeline import (
    DecoderWeights,
    KVCache,
    block_causal_mask,
    decode_step,
    decoder_forward,
    decoder_weights,
    packed_positions,
    permute_qk_rows,
    positions_from_mask,
    prefill,
)
from tests.strategies import layouts

seeds = st.integers(0, 2**16)


# --- a slow reference decoder, from the formula ------------------------------------------------


def rotate_pairs(vector, position, base=10000.0, layout="interleaved", rotary_dims=None):
    """Turn each pair of the first r entries by position·base^(−2i/r), counter-clockwise, one by one."""
    vector = list(map(float, vector))
    r = len(vector) if rotary_dims is None else rotary_dims
    out = list(vector)
    for i in range(r // 2):
        a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + r // 2)
        angle = position * base ** (-2 * i / r)
        c, s = math.cos(angle), math.sin(angle)
        out[a] = c * vector[a] - s * vector[b]
        out[b] = s * vector[a] + c * vector[b]
    return np.array(out)


def sinusoid(position, d, base=10000.0):
    return np.array(
        [
            math.sin(position * base ** (-(j - j % 2) / d))
            if j % 2 == 0
            else math.cos(position * base ** (-(j - 1) / d))
            for j in range(d)
        ]
    )


def slow_decoder(
    X, weights, positions, mask, allowed=None, encoding="rope", layout="interleaved", rotary_dims=None
):
    """Token by token, head by head: the definition written out."""
    batch, n, d_model = X.shape
    n_heads, _, d_head = weights.W_q.shape
    out = np.zeros((batch, n, n_heads * d_head))
    for b in range(batch):
        rows = [
            X[b, t] + (sinusoid(positions[b][t], d_model) if encoding == "additive" else 0) for t in range(n)
        ]
        for h in range(n_heads):
            q = [row @ weights.W_q[h] for row in rows]
            k = [row @ weights.W_k[h] for row in rows]
            v = [row @ weights.W_v[h] for row in rows]
            if encoding == "rope":
                q = [
                    rotate_pairs(q[t], positions[b][t], layout=layout, rotary_dims=rotary_dims)
                    for t in range(n)
                ]
                k = [
                    rotate_pairs(k[t], positions[b][t], layout=layout, rotary_dims=rotary_dims)
                    for t in range(n)
                ]
            for i in range(n):
                seen = [j for j in range(i + 1) if mask[b][j] == 1 and (allowed is None or allowed[i][j])]
                if not seen:
                    continue
                scores = np.array([q[i] @ k[j] / math.sqrt(d_head) for j in seen])
                weights_ = np.exp(scores - scores.max())
                weights_ /= weights_.sum()
                out[b, i, h * d_head : (h + 1) * d_head] = sum(
                    w * v[j] for w, j in zip(weights_, seen, strict=True)
                )
    return out


# --- positions_from_mask -----------------------------------------------------------------------


def hf_generate_ids(mask_rows, padded=0):
    """transformers generation/utils.py, in plain Python: position_ids = mask.cumsum(-1) - 1, then
    masked_fill(mask == 0, padded): padded = 0 in 5.x (_prepare_position_ids_for_generation, releases
    5.23.0 and 5.24.0), 1 in 4.x (prepare_inputs_for_generation, commit 1097d4b3)."""
    out = []
    for row in mask_rows:
        total, ids = 0, []
        for m in row:
            total += m
            ids.append(total - 1 if m else padded)
        out.append(ids)
    return out


def test_positions_from_mask_by_hand():
    mask = [[0, 0, 1, 1, 1], [1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [1, 0, 1, 0, 1]]
    release_5 = [[0, 0, 0, 1, 2], [0, 1, 2, 0, 0], [0, 1, 2, 3, 4], [0, 0, 0, 0, 0], [0, 0, 1, 0, 2]]
    release_4 = [[1, 1, 0, 1, 2], [0, 1, 2, 1, 1], [0, 1, 2, 3, 4], [1, 1, 1, 1, 1], [0, 1, 1, 1, 2]]
    for got, expected, padded in [
        (positions_from_mask(mask), release_5, 0),  # the default follows the current release
        (positions_from_mask(mask, release="5.x"), release_5, 0),
        (positions_from_mask(mask, release="4.x"), release_4, 1),
    ]:
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(got, hf_generate_ids(mask, padded))


def test_the_padded_value_by_release():
    assert pu.pipeline.PADDED_POSITIONS == {"5.x": 0, "4.x": 1}
    assert pu.pipeline.RELEASES[0] == "5.x" and pu.pipeline.PADDED_POSITION == 0


def test_positions_from_mask_accepts_bool_and_float_masks():
    mask = np.array([[False, True, True]])
    np.testing.assert_array_equal(positions_from_mask(mask), [[0, 0, 1]])
    np.testing.assert_array_equal(positions_from_mask(mask.astype(np.float32)), [[0, 0, 1]])
    np.testing.assert_array_equal(positions_from_mask(mask, release="4.x"), [[1, 0, 1]])
    assert positions_from_mask(np.zeros((2, 0), dtype=int)).shape == (2, 0)


def test_decode_position_is_the_count_of_real_tokens():
    # 4.x appends a column of ones per step and recomputes; the last id counts real tokens before it
    mask = np.array([[0, 0, 1, 1], [1, 1, 1, 1]])
    grown = np.concatenate([mask, np.ones((2, 1), dtype=int)], axis=1)
    for release in ("4.x", "5.x"):  # the new column's id does not depend on the padded value
        np.testing.assert_array_equal(positions_from_mask(grown, release=release)[:, -1], [2, 4])
    # 5.x gives the last id plus 1: the same for left padding (last ids 1 and 3)
    np.testing.assert_array_equal(positions_from_mask(mask)[:, -1] + 1, [2, 4])


def test_a_right_padded_row_restarts_at_1_in_release_5():
    # [t, t, t, pad, pad]: 5.x's last id is the pad's 0, so the next token gets 0 + 1 = 1;
    # 4.x recomputes from the grown mask [1, 1, 1, 0, 0, 1]: 3 real tokens before it, id 3
    mask = np.array([[1, 1, 1, 0, 0]])
    assert positions_from_mask(mask)[0, -1] + 1 == 1
    grown = np.array([[1, 1, 1, 0, 0, 1]])
    assert positions_from_mask(grown, release="4.x")[0, -1] == 3


@given(
    pads=st.lists(st.integers(0, 6), min_size=1, max_size=5),
    real=st.lists(st.integers(0, 6), min_size=5, max_size=5),
    left=st.booleans(),
    release=st.sampled_from(["5.x", "4.x"]),
)
def test_real_tokens_are_numbered_from_zero_whatever_the_padding(pads, real, left, release):
    width = max(p + r for p, r in zip(pads, real, strict=False))
    rows = []
    for r in real[: len(pads)]:
        pad = [0] * (width - r)
        rows.append(pad + [1] * r if left else [1] * r + pad)
    ids = positions_from_mask(rows, release=release)
    mask = np.array(rows)
    padded = {"5.x": 0, "4.x": 1}[release]
    for row_ids, row_mask in zip(ids, mask, strict=True):
        np.testing.assert_array_equal(row_ids[row_mask == 1], np.arange(row_mask.sum()))
        assert np.all(row_ids[row_mask == 0] == padded)
    np.testing.assert_array_equal(ids, hf_generate_ids(rows, padded))
    # the releases differ only at padded slots
    other = positions_from_mask(rows, release="4.x" if release == "5.x" else "5.x")
    np.testing.assert_array_equal(ids[mask == 1], other[mask == 1])


@pytest.mark.parametrize("release", ["5", "4", "5.24", "latest", None, 5, ["5.x"]])
def test_positions_from_mask_refuses_other_releases(release):
    with pytest.raises(ValueError, match=r"^release must be one of '5\.x', '4\.x', got"):
        positions_from_mask([[0, 1]], release=release)


# --- packing ---------------------------------------------------------------------------------------


def test_packed_positions_and_mask_by_hand():
    np.testing.assert_array_equal(packed_positions([3, 2]), [0, 1, 2, 0, 1])
    np.testing.assert_array_equal(packed_positions((1, 1, 1)), [0, 0, 0])
    expected = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1]], dtype=bool)
    np.testing.assert_array_equal(block_causal_mask([2, 1]), expected)
    np.testing.assert_array_equal(block_causal_mask([4]), np.tril(np.ones((4, 4), dtype=bool)))


@given(lengths=st.lists(st.integers(1, 7), min_size=1, max_size=5))
def test_packing_helpers_agree_with_a_loop(lengths):
    doc = [j for j, length in enumerate(lengths) for _ in range(length)]
    starts = [sum(lengths[:j]) for j in range(len(lengths))]
    positions = packed_positions(lengths)
    allowed = block_causal_mask(lengths)
    for i in range(len(doc)):
        assert positions[i] == i - starts[doc[i]]
        for j in range(len(doc)):
            assert allowed[i, j] == (j <= i and doc[i] == doc[j])


@settings(deadline=None, max_examples=40)
@given(
    lengths=st.lists(st.integers(1, 5), min_size=2, max_size=4),
    seed=seeds,
    encoding=st.sampled_from(["rope", "additive"]),
    layout=layouts,
)
def test_packed_pass_equals_separate_passes(lengths, seed, encoding, layout):
    rng = np.random.default_rng(seed)
    weights = decoder_weights(8, 2, 4, seed=seed)
    X = rng.normal(size=(1, sum(lengths), 8))
    options = {"encoding": encoding, "layout": layout}
    packed = decoder_forward(
        X, weights, packed_positions(lengths), allowed=block_causal_mask(lengths), **options
    )
    start = 0
    for length in lengths:
        alone = decoder_forward(X[:, start : start + length], weights, np.arange(length), **options)
        np.testing.assert_allclose(packed[:, start : start + length], alone, atol=1e-12)
        start += length


def test_each_half_of_packing_alone_fails():
    rng = np.random.default_rng(3)
    lengths = [4, 3]
    weights = decoder_weights(8, 1, 4, seed=3)
    X = rng.normal(size=(1, 7, 8))
    second = decoder_forward(X[:, 4:], weights, np.arange(3), encoding="additive")
    # positions reset, no block mask: the second document sees the first
    leaked = decoder_forward(X, weights, packed_positions(lengths), encoding="additive")
    assert np.abs(leaked[:, 4:] - second).max() > 1e-3
    # block mask, positions not reset: absolute positions 4, 5, 6 instead of 0, 1, 2
    shifted = decoder_forward(
        X, weights, np.arange(7), allowed=block_causal_mask(lengths), encoding="additive"
    )
    assert np.abs(shifted[:, 4:] - second).max() > 1e-3
    # with RoPE the shift is uniform within the document: equal to rounding
    second_rope = decoder_forward(X[:, 4:], weights, np.arange(3))
    shifted_rope = decoder_forward(X, weights, np.arange(7), allowed=block_causal_mask(lengths))
    np.testing.assert_allclose(shifted_rope[:, 4:], second_rope, atol=1e-12)


# --- checkpoint permutation ------------------------------------------------------------------------


def test_permute_qk_rows_by_hand():
    rows = np.arange(8.0)[:, None] * np.ones((1, 3))  # row r is r, r, r
    # two heads of d_head = 4: pairs (0,1), (2,3) become rows (0,2), (1,3) within each head
    np.testing.assert_array_equal(permute_qk_rows(rows, 2)[:, 0], [0, 2, 1, 3, 4, 6, 5, 7])
    np.testing.assert_array_equal(permute_qk_rows(rows, 1)[:, 0], [0, 2, 4, 6, 1, 3, 5, 7])
    np.testing.assert_array_equal(permute_qk_rows(rows, 2, to="interleaved")[:, 0], [0, 2, 1, 3, 4, 6, 5, 7])
    np.testing.assert_array_equal(permute_qk_rows(rows, 1, to="interleaved")[:, 0], [0, 4, 1, 5, 2, 6, 3, 7])


@given(n_heads=st.integers(1, 4), half=st.integers(1, 6), d_in=st.integers(1, 5), seed=seeds)
def test_permute_qk_rows_is_hf_permute_and_invertible(n_heads, half, d_in, seed):
    d_head = 2 * half
    W = np.random.default_rng(seed).normal(size=(n_heads * d_head, d_in))
    converted = permute_qk_rows(W, n_heads)
    for h in range(n_heads):
        for a in (0, 1):
            for i in range(half):  # new row h·d_head + a·half + i is old row h·d_head + 2i + a
                np.testing.assert_array_equal(converted[h * d_head + a * half + i], W[h * d_head + 2 * i + a])
    np.testing.assert_array_equal(permute_qk_rows(converted, n_heads, to="interleaved"), W)
    per_head = np.concatenate([h * d_head + pu.layout_permutation(d_head) for h in range(n_heads)])
    np.testing.assert_array_equal(converted, W[per_head])


@settings(deadline=None)
@given(
    n_heads=st.integers(1, 3),
    half=st.integers(1, 4),
    seed=seeds,
    p=st.integers(0, 300),
    q=st.integers(0, 300),
)
def test_converted_weights_give_the_same_scores_under_rotate_half(n_heads, half, seed, p, q):
    d_head, d_model = 2 * half, 6
    rng = np.random.default_rng(seed)
    Wq, Wk = rng.normal(size=(2, n_heads * d_head, d_model))
    x, y = rng.normal(size=(2, d_model))
    Wq_hf, Wk_hf = permute_qk_rows(Wq, n_heads), permute_qk_rows(Wk, n_heads)
    for h in range(n_heads):
        rows = slice(h * d_head, (h + 1) * d_head)
        meta = rotate_pairs(Wq[rows] @ x, p) @ rotate_pairs(Wk[rows] @ y, q)
        hf = rotate_pairs(Wq_hf[rows] @ x, p, layout="concatenated") @ rotate_pairs(
            Wk_hf[rows] @ y, q, layout="concatenated"
        )
        assert math.isclose(meta, hf, rel_tol=1e-9, abs_tol=1e-9)


# --- the decoder and its cache --------------------------------------------------------------------


def test_one_token_outputs_its_value():
    weights = decoder_weights(4, 2, 2, seed=5)
    x = np.random.default_rng(5).normal(size=(1, 1, 4))
    out = decoder_forward(x, weights, [[7.0]])
    np.testing.assert_allclose(
        out[0, 0], np.concatenate([x[0, 0] @ weights.W_v[0], x[0, 0] @ weights.W_v[1]])
    )


def test_two_tokens_by_hand():
    # one head, d_model = d_head = 2, W_q = W_k = W_v = I; tokens e0 = (1, 0) at 0 and e0 at position π/2.
    # Rotated: q0 = k0 = (1, 0); q1 = k1 = (0, 1). Query 1 scores k0: 0, k1: 1 (scaled by 1/√2):
    # weights (1, e^{1/√2})/(1 + e^{1/√2}); output = weights · values (1, 0), (1, 0) = (1, 0).
    identity = DecoderWeights(*(np.eye(2)[None] for _ in range(3)))
    X = np.array([[[1.0, 0.0], [1.0, 0.0]]])
    out = decoder_forward(X, identity, [[0.0, math.pi / 2]])
    np.testing.assert_allclose(out[0], [[1.0, 0.0], [1.0, 0.0]], atol=1e-15)
    # values (1, 0) and (0, 1): output of query 1 is the weighted mix
    X = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    # now q1 = k1 = R(π/2)(0, 1) = (−1, 0); q1·k0 = −1, q1·k1 = 1
    weights = np.exp(np.array([-1.0, 1.0]) / math.sqrt(2))
    weights /= weights.sum()
    out = decoder_forward(X, identity, [[0.0, math.pi / 2]])
    np.testing.assert_allclose(
        out[0, 1], weights[0] * np.array([1.0, 0.0]) + weights[1] * np.array([0.0, 1.0])
    )


@settings(deadline=None, max_examples=30)
@given(
    seed=seeds,
    encoding=st.sampled_from(["rope", "additive", "none"]),
    layout=layouts,
    partial=st.booleans(),
    pad=st.integers(0, 3),
)
def test_decoder_matches_the_slow_reference(seed, encoding, layout, partial, pad):
    rng = np.random.default_rng(seed)
    weights = decoder_weights(6, 2, 4, seed=seed)
    X = rng.normal(size=(2, 5, 6))
    mask = np.ones((2, 5), dtype=int)
    mask[1, :pad] = 0
    positions = rng.uniform(-20, 20, size=(2, 5))
    rotary = 2 if partial and encoding == "rope" else None
    allowed = rng.random((5, 5)) < 0.8
    got = decoder_forward(
        X,
        weights,
        positions,
        attention_mask=mask,
        allowed=allowed,
        encoding=encoding,
        layout=layout,
        rotary_dims=rotary,
    )
    expected = slow_decoder(X, weights, positions, mask, allowed, encoding, layout, rotary)
    np.testing.assert_allclose(got, expected, atol=1e-12)


def test_a_query_that_sees_nothing_outputs_zeros():
    weights = decoder_weights(4, 1, 2, seed=0)
    X = np.ones((1, 3, 4))
    out = decoder_forward(X, weights, [[1, 1, 0]], attention_mask=[[0, 0, 1]])
    np.testing.assert_array_equal(out[0, :2], 0.0)
    assert np.all(np.isfinite(out))


def test_cache_holds_keys_rotated_at_their_own_positions():
    rng = np.random.default_rng(2)
    weights = decoder_weights(8, 2, 4, seed=2)
    X = rng.normal(size=(2, 4, 8))
    mask = np.array([[0, 1, 1, 1], [1, 1, 1, 1]])
    ids = positions_from_mask(mask)
    _, cache = prefill(X, weights, ids, attention_mask=mask)
    for b in range(2):
        for h in range(2):
            for t in range(4):
                expected = rotate_pairs(X[b, t] @ weights.W_k[h], ids[b, t])
                np.testing.assert_allclose(cache.keys[b, h, t], expected, atol=1e-12)
                np.testing.assert_allclose(cache.values[b, h, t], X[b, t] @ weights.W_v[h], atol=1e-12)
    np.testing.assert_array_equal(cache.positions, ids)
    np.testing.assert_array_equal(cache.mask, mask)


@settings(deadline=None, max_examples=40)
@given(
    seed=seeds,
    prompt=st.integers(1, 5),
    steps=st.integers(1, 4),
    pads=st.lists(st.integers(0, 4), min_size=2, max_size=2),
    encoding=st.sampled_from(["rope", "additive", "none"]),
    layout=layouts,
    rotary=st.sampled_from([None, 2, 4]),
)
def test_prefill_then_decode_equals_one_full_pass(seed, prompt, steps, pads, encoding, layout, rotary):
    rng = np.random.default_rng(seed)
    width = prompt + max(pads)
    weights = decoder_weights(8, 2, 6, seed=seed)
    X = rng.normal(size=(2, width + steps, 8))
    mask = np.ones((2, width + steps), dtype=int)
    for b, pad in enumerate(pads):
        mask[b, :pad] = 0
    ids = positions_from_mask(mask)
    options = {"encoding": encoding, "layout": layout, "rotary_dims": rotary if encoding == "rope" else None}
    full = decoder_forward(X, weights, ids, attention_mask=mask, **options)
    first, cache = prefill(X[:, :width], weights, ids[:, :width], attention_mask=mask[:, :width], **options)
    np.testing.assert_allclose(first, full[:, :width], atol=1e-12)
    for t in range(width, width + steps):
        before = cache
        out, cache = decode_step(X[:, t], weights, ids[:, t], cache, **options)
        assert before.keys.shape[2] == t  # the input cache is left as it was
        np.testing.assert_allclose(out, full[:, t], atol=1e-12)


@settings(deadline=None, max_examples=40)
@given(
    seed=seeds,
    real=st.integers(1, 5),
    pad=st.integers(1, 5),
    layout=layouts,
    encoding=st.sampled_from(["rope", "additive"]),
)
def test_outputs_with_mask_ids_do_not_depend_on_left_padding(seed, real, pad, layout, encoding):
    rng = np.random.default_rng(seed)
    weights = decoder_weights(8, 2, 4, seed=seed)
    tokens = rng.normal(size=(1, real, 8))
    alone = decoder_forward(tokens, weights, np.arange(real), layout=layout, encoding=encoding)
    padded = np.concatenate([rng.normal(size=(1, pad, 8)), tokens], axis=1)
    mask = np.array([[0] * pad + [1] * real])
    out = decoder_forward(
        padded, weights, positions_from_mask(mask), attention_mask=mask, layout=layout, encoding=encoding
    )
    np.testing.assert_allclose(out[:, pad:], alone, atol=1e-12)
    # arange ids shift every real token by `pad`: RoPE scores see offsets only, an absolute encoding does not
    shifted = decoder_forward(
        padded, weights, np.arange(real + pad), attention_mask=mask, layout=layout, encoding=encoding
    )
    if encoding == "rope":
        np.testing.assert_allclose(shifted[:, pad:], alone, atol=1e-12)
    else:
        assert np.abs(shifted[:, pad:] - alone).max() > 1e-6


def test_decode_refuses_positions_that_move_backwards_or_repeat():
    weights = decoder_weights(4, 1, 2, seed=0)
    X = np.ones((2, 3, 4))
    _, cache = prefill(X, weights, [[1, 0, 1], [0, 1, 2]], attention_mask=[[0, 1, 1], [1, 1, 1]])
    x = np.ones((2, 4))
    decode_step(x, weights, [2, 3], cache)  # the next positions: fine
    decode_step(x, weights, [5, 9], cache)  # skipping ahead is allowed (an off-by-one shows as wrong outputs)
    with pytest.raises(
        ValueError,
        match=(
            r"^position must be greater.*this toy decoder requires.*"
            r"row 1 has a token at 2 and got position 2"
        ),
    ):
        decode_step(x, weights, [2, 2], cache)
    with pytest.raises(ValueError, match="row 0 has a token at 1 and got position 0"):
        decode_step(x, weights, [0, 3], cache)


# --- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mask", "error", "words"),
    [
        ([0, 1, 1], ValueError, "attention_mask must be 2-D"),
        ([[[1]]], ValueError, "attention_mask must be 2-D"),
        ([[0, 2, 1]], ValueError, "attention_mask must hold only 0"),
        ([[0, -1]], ValueError, "attention_mask must hold only 0"),
        ([[0.5, 1.0]], ValueError, "attention_mask must hold only 0"),
        ([[np.nan, 1.0]], ValueError, "attention_mask must hold only 0"),
        ([["1", "0"]], TypeError, "attention_mask must be an array of 0s and 1s"),
        ([[None, 1]], TypeError, "attention_mask"),
        ([[1j, 1]], TypeError, "attention_mask"),
        (5, ValueError, "attention_mask must be 2-D"),
        ([[1, 1], [1]], ValueError, "attention_mask must be a rectangular 2-D array"),
        ([[0, 1, 1], [1, 1]], ValueError, "attention_mask must be a rectangular"),
    ],
)
def test_bad_masks_name_the_argument(mask, error, words):
    with pytest.raises(error, match=words):
        positions_from_mask(mask)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: packed_positions([]), ValueError, "lengths must be a non-empty"),
        (lambda: packed_positions([[1, 2]]), ValueError, "lengths must be a non-empty 1-D"),
        (lambda: packed_positions([3, 0]), ValueError, "every entry of lengths"),
        (lambda: packed_positions([3, -1]), ValueError, "every entry of lengths"),
        (lambda: packed_positions([2.0]), TypeError, "every entry of lengths"),
        (lambda: packed_positions([True]), TypeError, "every entry of lengths"),
        (lambda: packed_positions(5), ValueError, "lengths"),
        (lambda: packed_positions([2**40]), ValueError, "GiB"),
        (lambda: block_causal_mask([10**6]), ValueError, "GiB"),
        (lambda: block_causal_mask(["3"]), TypeError, "every entry of lengths"),
        (lambda: permute_qk_rows(np.ones((6, 2)), 2), ValueError, "d_head even"),
        (lambda: permute_qk_rows(np.ones((8, 2)), 3), ValueError, "n_heads"),
        (lambda: permute_qk_rows(np.ones((8, 2)), 0), ValueError, "n_heads"),
        (lambda: permute_qk_rows(np.ones((8, 2)), 2.0), TypeError, "n_heads"),
        (lambda: permute_qk_rows(np.ones(8), 2), ValueError, "weight must be a 2-D"),
        (lambda: permute_qk_rows(np.full((4, 2), np.nan), 1), ValueError, "weight"),
        (lambda: permute_qk_rows(np.ones((4, 2)), 1, to="halves"), ValueError, "to must be one of"),
        (lambda: decoder_weights(0, 1, 2), ValueError, "d_model"),
        (lambda: decoder_weights(4, 1.5, 2), TypeError, "n_heads"),
        (lambda: decoder_weights(4, 1, -2), ValueError, "d_head"),
        (lambda: decoder_weights(4, 1, 2, seed=-1), ValueError, "seed"),
        (lambda: decoder_weights(10**5, 10**3, 10**3), ValueError, "GiB"),
    ],
)
def test_bad_helper_arguments_are_refused_by_name(call, error, words):
    with pytest.raises(error, match=words):
        call()


WEIGHTS = decoder_weights(4, 2, 2, seed=0)
X3 = np.ones((2, 3, 4))


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"X": np.ones((3, 4))}, ValueError, "X must be 3-D"),
        ({"X": np.full((2, 3, 4), np.inf)}, ValueError, "X must be finite"),
        ({"X": np.ones((2, 3, 5))}, ValueError, "d_model"),
        ({"weights": (1, 2, 3)}, TypeError, "weights must be a pe_utils.DecoderWeights"),
        (
            {"weights": DecoderWeights(np.ones((2, 4, 2)), np.ones((2, 4, 2)), np.ones((2, 4, 3)))},
            ValueError,
            "weights.W_v",
        ),
        (
            {"weights": DecoderWeights(np.ones((4, 2)), np.ones((4, 2)), np.ones((4, 2)))},
            ValueError,
            "weights.W_q",
        ),
        ({"positions": np.ones((2, 4))}, ValueError, "positions of shape"),
        ({"positions": [[0, np.nan, 1]] * 2}, ValueError, "positions must be finite"),
        ({"positions": [["a", "b", "c"]] * 2}, TypeError, "positions"),
        ({"attention_mask": [[1, 1]] * 2}, ValueError, "attention_mask must have shape"),
        ({"attention_mask": [[1, 2, 1]] * 2}, ValueError, "attention_mask must hold only"),
        ({"allowed": np.ones((3, 3))}, TypeError, "allowed must be a boolean"),
        ({"allowed": np.ones((2, 2), dtype=bool)}, ValueError, "allowed must have shape"),
        ({"encoding": "alibi"}, ValueError, "encoding must be one of"),
        ({"base": 1.0}, ValueError, "base"),
        ({"layout": "halves"}, ValueError, "layout"),
        ({"rotary_dims": 3}, ValueError, "rotary_dims"),
        ({"rotary_dims": 4}, ValueError, "from 2 to d_head = 2"),  # the limit is the head size
        ({"rotary_dims": 2, "encoding": "additive"}, ValueError, "rotary_dims applies to encoding 'rope'"),
        ({"weights": decoder_weights(4, 1, 3)}, ValueError, "even d_head"),
        (
            {"X": np.ones((2, 3, 3)), "weights": decoder_weights(3, 1, 2), "encoding": "additive"},
            ValueError,
            "even d_model",
        ),
    ],
)
def test_bad_decoder_arguments_are_refused_by_name(kwargs, error, words):
    arguments = {"X": X3, "weights": WEIGHTS, "positions": np.arange(3), **kwargs}
    with pytest.raises(error, match=words):
        decoder_forward(arguments.pop("X"), arguments.pop("weights"), arguments.pop("positions"), **arguments)
    if "allowed" not in kwargs:
        arguments = {"X": X3, "weights": WEIGHTS, "positions": np.arange(3), **kwargs}
        with pytest.raises(error, match=words):
            prefill(arguments.pop("X"), arguments.pop("weights"), arguments.pop("positions"), **arguments)


def _cache():
    return prefill(X3, WEIGHTS, np.arange(3))[1]


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        (lambda c: (1, 2, 3, 4), TypeError, "cache must be a pe_utils.KVCache"),
        (lambda c: c._replace(keys=c.keys[:, :1]), ValueError, "cache.keys must have shape"),
        (lambda c: c._replace(keys=c.keys[..., :1], values=c.values[..., :1]), ValueError, "cache.keys"),
        (lambda c: c._replace(keys=c.keys[:1], values=c.values[:1]), ValueError, "cache.keys"),
        (lambda c: c._replace(values=c.values[:, :, :2]), ValueError, "cache.values"),
        (lambda c: c._replace(positions=c.positions[:, :2]), ValueError, "cache.positions"),
        (lambda c: c._replace(mask=c.mask[:, :2]), ValueError, "cache.mask must have shape"),
        (lambda c: c._replace(mask=c.mask * 3), ValueError, "cache.mask must hold only"),
        (lambda c: c._replace(keys=c.keys * np.nan), ValueError, "cache.keys must be finite"),
    ],
)
def test_bad_caches_are_refused_by_name(change, error, words):
    with pytest.raises(error, match=words):
        decode_step(np.ones((2, 4)), WEIGHTS, [3, 3], change(_cache()))


@pytest.mark.parametrize(
    ("x", "position", "error", "words"),
    [
        (np.ones(4), [3, 3], ValueError, "x must be 2-D"),
        (np.ones((3, 4)), [3, 3, 3], ValueError, "cache.keys must have shape"),
        (np.ones((2, 5)), [3, 3], ValueError, "d_model"),
        (np.ones((2, 4)), [3, 3, 3], ValueError, "position of shape"),
        (np.ones((2, 4)), [3, np.inf], ValueError, "position must be finite"),
        (np.ones((2, 4)), [1, 3], ValueError, "position must be greater"),
    ],
)
def test_bad_decode_arguments_are_refused_by_name(x, position, error, words):
    with pytest.raises(error, match=words):
        decode_step(x, WEIGHTS, position, _cache())


def test_a_huge_sequence_is_refused_before_any_allocation():
    import tracemalloc

    n = 200_000  # scores (1, 1, n, n) in float64: 298 GiB
    X = np.zeros((1, n, 2))  # 3.2 MB, allocated before tracing
    weights = decoder_weights(2, 1, 2, seed=0)
    positions = np.arange(n)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"^attention scores of shape \(1, 1, 200000, 200000\)"):
            decoder_forward(X, weights, positions)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * X.nbytes  # nothing of size n² (40 GB for a bool array) was made


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"layout": "concatenated"}, "layout"),
        ({"encoding": "additive"}, "encoding"),
        ({"encoding": "none"}, "encoding"),
        ({"base": 500.0}, "base"),
        ({"rotary_dims": 2}, "rotary_dims"),
    ],
)
def test_decode_refuses_options_other_than_the_caches(options, name):
    cache = _cache()  # built with the defaults: rope, base 10000, interleaved, every dimension
    recorded = (cache.encoding, cache.base, cache.layout, cache.rotary_dims)
    assert recorded == ("rope", 10000.0, "interleaved", None)
    with pytest.raises(ValueError, match=rf"^{name}=.* differs from the cache's {name}="):
        decode_step(np.ones((2, 4)), WEIGHTS, [3, 3], cache, **options)


def test_the_cache_records_its_options_and_decode_keeps_them():
    options = {"encoding": "rope", "base": 500.0, "layout": "concatenated", "rotary_dims": 2}
    _, cache = prefill(X3, WEIGHTS, np.arange(3), **options)
    assert cache[4:] == tuple(options.values())
    _, grown = decode_step(np.ones((2, 4)), WEIGHTS, [3, 3], cache, **options)
    assert grown[4:] == tuple(options.values())
    with pytest.raises(ValueError, match="^layout='interleaved' differs"):  # the default is not the cache's
        decode_step(np.ones((2, 4)), WEIGHTS, [3, 3], cache, base=500.0, rotary_dims=2)
    odd = cache._replace(base=np.array([500.0, 500.0]))  # an array where a number belongs
    with pytest.raises(ValueError, match="^base=500.0 differs"):
        decode_step(np.ones((2, 4)), WEIGHTS, [3, 3], odd, **options)


def test_scalar_position_is_shared_by_the_batch():
    cache = _cache()
    a, _ = decode_step(np.ones((2, 4)), WEIGHTS, 3, cache)
    b, _ = decode_step(np.ones((2, 4)), WEIGHTS, [3, 3], cache)
    np.testing.assert_array_equal(a, b)


def test_public_names():
    for name in (
        "positions_from_mask",
        "decoder_forward",
        "prefill",
        "decode_step",
        "packed_positions",
        "block_causal_mask",
        "permute_qk_rows",
        "decoder_weights",
        "DecoderWeights",
        "KVCache",
    ):
        assert getattr(pu, name) is getattr(pu.pipeline, name)
        assert "notebook 11" in getattr(pu, name).__doc__
    assert isinstance(_cache(), KVCache)
