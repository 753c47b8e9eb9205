"""Every bad argument is refused first, with a message that names it."""

import numpy as np
import pytest

import pe_utils as pu
from pe_utils import _checks

EYE = np.eye(3)

BAD_CALLS = [
    # d_model: odd, zero, negative, float, boolean
    ("odd d_model", lambda: pu.sinusoidal_pe(4, 5), ValueError, "d_model"),
    ("zero d_model", lambda: pu.frequencies(0), ValueError, "d_model"),
    ("negative d_model", lambda: pu.wavelengths(-4), ValueError, "d_model"),
    ("float d_model", lambda: pu.sinusoidal_pe(4, 4.0), TypeError, "d_model"),
    ("bool d_model", lambda: pu.layout_permutation(True), TypeError, "d_model"),
    ("odd d_model in shift_matrix", lambda: pu.shift_matrix(1, 3), ValueError, "d_model"),
    ("odd d_model in profile", lambda: pu.similarity_profile([1], 7), ValueError, "d_model"),
    ("odd rows in shift", lambda: pu.shift(np.ones((2, 3)), 1), ValueError, "d_model"),
    ("scalar rows in shift", lambda: pu.shift(1.0, 1), ValueError, "rows"),
    # counts: negative, non-integer
    ("negative n_positions", lambda: pu.sinusoidal_pe(-1, 4), ValueError, "n_positions"),
    ("float n_positions", lambda: pu.sinusoidal_pe(2.5, 4), TypeError, "n_positions"),
    ("bool n_positions", lambda: pu.sinusoidal_pe(True, 4), TypeError, "n_positions"),
    ("negative binary count", lambda: pu.binary_codes(-3), ValueError, "n_positions"),
    ("float n_bits", lambda: pu.binary_codes(4, 2.0), TypeError, "n_bits"),
    # base
    ("base equal to 1", lambda: pu.frequencies(4, base=1.0), ValueError, "base"),
    ("base below 1", lambda: pu.sinusoidal_pe(3, 4, base=0.5), ValueError, "base"),
    ("infinite base", lambda: pu.shift_matrix(1, 4, base=np.inf), ValueError, "base"),
    ("NaN base", lambda: pu.similarity_profile([1], 4, base=np.nan), ValueError, "base"),
    ("string base", lambda: pu.frequencies(4, base="10000"), TypeError, "base"),
    # layout, dtype, method
    ("unknown layout", lambda: pu.sinusoidal_pe(3, 4, layout="halves"), ValueError, "layout.*'interleaved'"),
    ("unknown layout in shift", lambda: pu.shift(np.ones(4), 1, layout="x"), ValueError, "layout"),
    ("integer dtype", lambda: pu.sinusoidal_pe(3, 4, dtype=np.int32), TypeError, "dtype"),
    ("complex dtype", lambda: pu.encode_positions([1], 4, dtype=complex), TypeError, "dtype"),
    ("nonsense dtype", lambda: pu.sinusoidal_pe(3, 4, dtype="banana"), TypeError, "dtype"),
    ("no method switch", lambda: pu.sinusoidal_pe(3, 4, method="direct"), TypeError, "method"),
    ("fast: unknown layout", lambda: pu.sinusoidal_pe_fast(3, 4, layout="x"), ValueError, "layout"),
    ("fast: integer dtype", lambda: pu.sinusoidal_pe_fast(3, 4, dtype=int), TypeError, "dtype"),
    ("fast: negative n", lambda: pu.sinusoidal_pe_fast(-1, 4), ValueError, "n_positions"),
    ("fast: odd d_model", lambda: pu.sinusoidal_pe_fast(3, 5), ValueError, "d_model"),
    ("fast: base 1", lambda: pu.sinusoidal_pe_fast(3, 4, base=1.0), ValueError, "base"),
    ("float32 angles: NaN", lambda: pu.float32_angle_error([np.nan], [1.0]), ValueError, "positions"),
    (
        "float32 angles: beyond float32",
        lambda: pu.float32_angle_error([1e39], [1.0]),
        ValueError,
        "positions must be within float32's range",
    ),
    ("float32 angles: 2-D omega", lambda: pu.float32_angle_error([1.0], [[1.0]]), ValueError, "omega"),
    ("float32 angles: no omega", lambda: pu.float32_angle_error([1.0], []), ValueError, "omega"),
    (
        "float32 angles: omega32 shape",
        lambda: pu.float32_angle_error([1.0], [1.0, 0.1], [1.0]),
        ValueError,
        "omega32 must have the shape of omega",
    ),
    (
        "float32 angles: string omega32",
        lambda: pu.float32_angle_error([1.0], [1.0], ["a"]),
        TypeError,
        "omega32",
    ),
    # non-finite positions and offsets
    ("NaN position", lambda: pu.encode_positions([0.0, np.nan], 4), ValueError, "positions"),
    ("infinite position", lambda: pu.encode_positions([np.inf], 4), ValueError, "positions"),
    ("string positions", lambda: pu.encode_positions(["a"], 4), TypeError, "positions"),
    ("infinite offset", lambda: pu.similarity_profile([np.inf], 4), ValueError, "offsets"),
    ("NaN k", lambda: pu.shift_matrix(np.nan, 4), ValueError, "k"),
    ("several k in shift_matrix", lambda: pu.shift_matrix([1, 2], 4), ValueError, "k must be a single"),
    ("NaN k in shift", lambda: pu.shift(np.ones(4), np.nan), ValueError, "k"),
    ("NaN in rows", lambda: pu.shift(np.full(4, np.nan), 1), ValueError, "rows"),
    ("k shape mismatch", lambda: pu.shift(np.ones((3, 4)), [1, 2]), ValueError, "k of shape"),
    # permutations
    ("repeated index", lambda: pu.permutation_matrix([0, 0, 2]), ValueError, "order"),
    ("index out of range", lambda: pu.permutation_matrix([0, 3, 1]), ValueError, "order"),
    ("negative index", lambda: pu.permutation_matrix([-1, 0]), ValueError, "order"),
    ("float indices", lambda: pu.permutation_matrix([0.0, 1.0]), TypeError, "order"),
    ("2-D order", lambda: pu.permutation_matrix([[0, 1]]), ValueError, "order"),
    ("boolean indices", lambda: pu.permutation_matrix([True, False]), TypeError, "order"),
    ("string order", lambda: pu.permutation_matrix("10"), ValueError, "order"),
    # attention shapes
    ("X not 2-D", lambda: pu.self_attention(np.ones(3), EYE, EYE, EYE), ValueError, "X"),
    ("W_q rows", lambda: pu.self_attention(EYE, np.ones((2, 3)), EYE, EYE), ValueError, "W_q"),
    ("W_k rows", lambda: pu.attention_weights(EYE, EYE, np.ones((4, 3))), ValueError, "W_k"),
    ("W_k columns", lambda: pu.attention_weights(EYE, EYE, np.ones((3, 2))), ValueError, "W_k"),
    ("W_v rows", lambda: pu.self_attention(EYE, EYE, EYE, np.ones((2, 3))), ValueError, "W_v"),
    ("NaN in X", lambda: pu.self_attention(np.full((2, 3), np.nan), EYE, EYE, EYE), ValueError, "X"),
    (
        "W_q without columns",
        lambda: pu.attention_weights(EYE, np.ones((3, 0)), np.ones((3, 0))),
        ValueError,
        "W_q.*column",
    ),
    ("causal not a bool", lambda: pu.attention_weights(EYE, EYE, EYE, causal="yes"), TypeError, "causal"),
    # softmax: masked scores are -inf; NaN, +inf and fully masked slices are refused
    ("NaN score", lambda: pu.softmax([np.nan, 1.0]), ValueError, "scores"),
    ("+inf score", lambda: pu.softmax([np.inf, 1.0]), ValueError, "scores"),
    ("fully masked slice", lambda: pu.softmax([[0.0, 1.0], [-np.inf, -np.inf]]), ValueError, "scores"),
    ("string scores", lambda: pu.softmax(["a"]), TypeError, "scores"),
    ("scalar scores", lambda: pu.softmax(1.0), ValueError, "scores"),
    ("softmax axis out of range", lambda: pu.softmax([1.0, 2.0], axis=1), ValueError, "axis"),
    ("softmax float axis", lambda: pu.softmax([1.0, 2.0], axis=0.0), ValueError, "axis"),
    # helpers of notebooks 01 and 06
    ("tokens not a list", lambda: pu.token_embeddings(5, 4), TypeError, "tokens"),
    ("one string as tokens", lambda: pu.token_embeddings("a word", 4), TypeError, "tokens"),
    ("non-string token", lambda: pu.token_embeddings(["a", 1], 4), TypeError, "tokens"),
    ("negative embedding d_model", lambda: pu.token_embeddings(["a"], -1), ValueError, "d_model"),
    ("negative embedding seed", lambda: pu.token_embeddings(["a"], 4, seed=-1), ValueError, "seed"),
    ("zero weight d_model", lambda: pu.fixed_weights(0), ValueError, "d_model"),
    ("float weight d_model", lambda: pu.fixed_weights(4.0), TypeError, "d_model"),
    ("zero d_k", lambda: pu.fixed_weights(4, d_k=0), ValueError, "d_k"),
    ("negative d_k", lambda: pu.fixed_weights(4, d_k=-1), ValueError, "d_k"),
    ("negative d_v", lambda: pu.fixed_weights(4, d_v=-1), ValueError, "d_v"),
    ("negative weight seed", lambda: pu.fixed_weights(4, seed=-1), ValueError, "seed"),
    ("float weight seed", lambda: pu.fixed_weights(4, seed=1.5), TypeError, "seed"),
    ("negative notebook seed", lambda: pu.setup_notebook(seed=-1), ValueError, "seed"),
    ("string notebook seed", lambda: pu.setup_notebook(seed="0"), TypeError, "seed"),
    # tables too large to allocate
    ("huge table", lambda: pu.sinusoidal_pe(10**9, 512), ValueError, "encoding table.*GiB"),
    ("huge fast table", lambda: pu.sinusoidal_pe_fast(10**9, 512), ValueError, "encoding table.*GiB"),
    ("huge encode", lambda: pu.encode_positions(np.arange(3), 2**40), ValueError, "GiB"),
    ("huge shift matrix", lambda: pu.shift_matrix(1, 2**20), ValueError, "shift matrix.*GiB"),
    ("huge binary table", lambda: pu.binary_codes(2**40), ValueError, "binary code table.*GiB"),
    # An empty table can still ask for a huge d_model: the d/2 frequencies alone are refused.
    ("huge frequencies", lambda: pu.frequencies(2**40), ValueError, "frequencies.*GiB"),
    ("huge wavelengths", lambda: pu.wavelengths(2**40), ValueError, "frequencies.*GiB"),
    ("huge permutation", lambda: pu.layout_permutation(2**40), ValueError, "layout permutation.*GiB"),
    ("no rows, huge d_model", lambda: pu.sinusoidal_pe(0, 2**40), ValueError, "GiB"),
    ("no positions, huge d_model", lambda: pu.encode_positions([], 2**40), ValueError, "GiB"),
    ("no offsets, huge d_model", lambda: pu.similarity_profile([], 2**40), ValueError, "GiB"),
    ("no variant rows, huge d_model", lambda: pu.sinusoidal_pe_variant(0, 2**40), ValueError, "GiB"),
    (
        "no positions, huge unsafe table",
        lambda: pu.encode_with_angle_dtype([], 2**40, angle_dtype=np.float32),
        ValueError,
        "GiB",
    ),
    ("no positions, slow reference", lambda: pu.reference_encoding([], 2**24), ValueError, "d_model"),
    ("no positions, huge n_bits", lambda: pu.binary_codes(0, 2**40), ValueError, "binary code table.*GiB"),
    (
        "huge permutation matrix",
        lambda: pu.permutation_matrix(np.arange(2**15)),
        ValueError,
        "permutation matrix.*GiB",
    ),
    ("huge weights", lambda: pu.fixed_weights(2**16, 2**14), ValueError, "weight matrix.*GiB"),
    ("huge embeddings", lambda: pu.token_embeddings(["a"], 2**28), ValueError, "embedding table.*GiB"),
]


@pytest.mark.parametrize(
    "call, error, match", [case[1:] for case in BAD_CALLS], ids=[case[0] for case in BAD_CALLS]
)
def test_bad_input_is_refused_with_a_message_naming_it(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_size_check_runs_before_allocation(monkeypatch):
    # With a 1 KiB budget a 32-row table (1 KiB of float64 at d = 4) is fine, 33 rows are not.
    monkeypatch.setattr(_checks, "MAX_TABLE_BYTES", 1024)
    assert pu.sinusoidal_pe(32, 4).shape == (32, 4)
    with pytest.raises(ValueError, match=r"shape \(33, 4\).*budget"):
        pu.sinusoidal_pe(33, 4)


def test_layout_error_lists_the_choices():
    with pytest.raises(ValueError) as info:
        pu.sinusoidal_pe(2, 4, layout="sin-first")
    assert "'interleaved'" in str(info.value) and "'concatenated'" in str(info.value)


def test_numpy_integers_are_accepted():
    assert pu.sinusoidal_pe(np.int64(3), np.int32(4)).shape == (3, 4)
    assert pu.permutation_matrix(np.array([1, 0], dtype=np.uint8)).shape == (2, 2)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: pu.encode_positions([[0, 1], [2]], 8), "positions"),
        (lambda: pu.rope([[1.0, 2.0], [3.0]], [0, 1]), "x"),
        (lambda: pu.shift([[1.0, 0.0], [0.5]], 1), "rows"),
    ],
)
def test_a_ragged_array_is_refused_by_name(call, name):
    with pytest.raises(ValueError, match=rf"{name} must be a rectangular array"):
        call()
