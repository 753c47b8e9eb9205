"""pe_utils.rope_scaling: context-extension rules, YaRN's attention scale, ALiBi slopes (notebook 09).

Expected values are worked out by hand in the comments (or from a literal transcription
of the published code), never copied from the functions' output.
"""

import inspect
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import pe_utils as pu
from pe_utils.rope_scaling import rope_frequencies, yarn_attention_scale
from tests.strategies import bases, d_models, layouts

factors = st.floats(min_value=1.0, max_value=64.0, allow_nan=False)
any_factors = st.floats(min_value=0.05, max_value=64.0, allow_nan=False)
lengths = st.integers(min_value=16, max_value=200_000)


def linear(s):
    return {"rope_type": "linear", "factor": s}


def ntk(s):
    return {"rope_type": "ntk", "factor": s}


def yarn(s, length, **extra):
    return {"rope_type": "yarn", "factor": s, "original_max_position_embeddings": length, **extra}


def dynamic(s, length):
    return {"rope_type": "dynamic", "factor": s, "original_max_position_embeddings": length}


def llama3(s, length, low=1.0, high=4.0):
    return {
        "rope_type": "llama3",
        "factor": s,
        "low_freq_factor": low,
        "high_freq_factor": high,
        "original_max_position_embeddings": length,
    }


# --- unit tests: values worked out by hand ---------------------------------------------------


def test_no_scaling_is_the_plain_frequencies():
    # d = 8, base 10000: ω_i = 10000^(−i/4) = 1, 0.1, 0.01, 0.001
    np.testing.assert_allclose(rope_frequencies(8), [1.0, 0.1, 0.01, 0.001], rtol=1e-14)


def test_linear_by_hand():
    # d = 4, base 100: ω = 1, 0.1; divided by s = 2
    np.testing.assert_allclose(rope_frequencies(4, base=100.0, scaling=linear(2.0)), [0.5, 0.05], rtol=1e-14)


def test_ntk_by_hand():
    # d = 4, base 100, s = 4: new base 100·4^(4/2) = 1600, ω = 1, 1600^(−1/2) = 1/40
    np.testing.assert_allclose(rope_frequencies(4, base=100.0, scaling=ntk(4.0)), [1.0, 0.025], rtol=1e-14)


def test_yarn_by_hand():
    # d = 8, base 10^4: i(r) = 8·ln(L/(2πr)) / (2·ln 10^4) = log10(L/(2πr)).
    # L = 6284: i(32) = log10(31.25…) = 1.49… → low 1; i(1) = log10(1000.1…) = 3.00… → high 4.
    # ramp γ_i = clip((i − 1)/3) = 0, 0, 1/3, 2/3; ω'_i = γ ω_i/s + (1 − γ) ω_i with s = 4:
    # pair 2: 0.01·(1/12 + 2/3) = 0.0075; pair 3: 0.001·(2/12 + 1/3) = 0.0005.
    got = rope_frequencies(8, scaling=yarn(4.0, 6284))
    np.testing.assert_allclose(got, [1.0, 0.1, 0.0075, 0.0005], rtol=1e-12)


def test_yarn_without_truncation_uses_the_unrounded_ends():
    low = math.log10(6284 / (2 * math.pi * 32))  # same i(r) as above, not rounded
    high = math.log10(6284 / (2 * math.pi * 1))
    ramp = np.clip((np.arange(4) - low) / (high - low), 0, 1)
    omega = np.array([1.0, 0.1, 0.01, 0.001])
    expected = ramp * omega / 4 + (1 - ramp) * omega
    got = rope_frequencies(8, scaling=yarn(4.0, 6284, truncate=False))
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert not np.allclose(got, rope_frequencies(8, scaling=yarn(4.0, 6284)))


def test_yarn_optional_betas_move_the_band():
    # beta_fast = 2, beta_slow = 0.5 with L = 6284: i(2) = log10(500.0…) = 2.69… → 2,
    # i(0.5) = log10(2000.2…) = 3.30… → 4. γ = 0, 0, 0, 1/2 → pair 3: 0.001·(1/8 + 1/2)
    got = rope_frequencies(8, scaling=yarn(4.0, 6284, beta_fast=2.0, beta_slow=0.5))
    np.testing.assert_allclose(got, [1.0, 0.1, 0.01, 0.000625], rtol=1e-12)


def test_llama3_by_hand():
    # d = 8, base 10^4: λ = 2π·(1, 10, 100, 1000). L = 1000, α = 1, β = 4: unchanged below
    # λ = 250, divided by s = 8 above λ = 1000; pair 2 (λ = 628.3) in the band:
    # t = (1000/λ − 1)/3, ω' = 0.01·((1 − t)/8 + t).
    t = (1000 / (2 * math.pi * 100) - 1) / 3
    expected = [1.0, 0.1, 0.01 * ((1 - t) / 8 + t), 0.001 / 8]
    np.testing.assert_allclose(rope_frequencies(8, scaling=llama3(8.0, 1000)), expected, rtol=1e-12)


def test_llama3_is_continuous_at_the_band_edges():
    # d = 4: λ_1 = 2π·base^(1/2). Pick the base that puts λ_1 on an edge, L/β or L/α; rounding
    # may put it on either side, and both sides must agree: divisor 1 at L/β, s at L/α.
    length, low, high, s = 1000, 1.0, 4.0, 8.0
    for edge, expected_divisor in [(length / high, 1.0), (length / low, s)]:
        base = (edge / (2 * math.pi)) ** 2
        omega_1 = base**-0.5
        got = rope_frequencies(4, base=base, scaling=llama3(s, length, low, high))
        np.testing.assert_allclose(omega_1 / got[1], expected_divisor, rtol=1e-9)


def test_dynamic_by_hand():
    # d = 4, base 100, s = 2, L = 10. At n = 20: the bracket s·n/L − (s − 1) = 3, the new base
    # 100·3^(4/2) = 900, ω = 1, 900^(−1/2) = 1/30.
    np.testing.assert_allclose(
        rope_frequencies(4, base=100.0, scaling=dynamic(2.0, 10), seq_len=20), [1.0, 1 / 30], rtol=1e-14
    )
    # n ≤ L: nothing changes (ω = 1, 0.1)
    for n in (1, 9, 10):
        np.testing.assert_array_equal(
            rope_frequencies(4, base=100.0, scaling=dynamic(2.0, 10), seq_len=n), [1.0, 0.1]
        )
    # n = sL with s = 4: the bracket is s² − s + 1 = 13, so the last pair (i = d/2 − 1) is divided by 13
    # and the base multiplied by 13^(d/(d−2)); for d = 128 that is about 13.54 (ln 13 · 128/126 ≈ 2.6057)
    got = rope_frequencies(128, scaling=dynamic(4.0, 4096), seq_len=4 * 4096)
    np.testing.assert_allclose(pu.frequencies(128)[-1] / got[-1], 13.0, rtol=1e-12)
    new_base = got[1] ** (-128 / 2)  # ω_1 = base'^(−2/d)
    np.testing.assert_allclose(new_base / 10000.0, 13.0 ** (128 / 126), rtol=1e-10)
    assert round(new_base / 10000.0, 2) == 13.54


def hf_dynamic_ntk(base, dim, max_position_embeddings, factor, seq_len):
    """transformers modeling_rope_utils.py @ ef468064, _compute_dynamic_ntk_parameters, in plain Python."""
    if seq_len is None or seq_len <= max_position_embeddings:
        seq_len = max_position_embeddings
    base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    return [1.0 / (base ** (i / dim)) for i in range(0, dim, 2)]


@given(
    d=d_models.filter(lambda d: d > 2),
    base=bases,
    s=any_factors,
    length=lengths,
    n=st.integers(min_value=1, max_value=2_000_000),
)
def test_dynamic_matches_hugging_face_and_is_static_ntk_with_the_bracket(d, base, s, length, n):
    got = rope_frequencies(d, base=base, scaling=dynamic(s, length), seq_len=n)
    np.testing.assert_allclose(got, hf_dynamic_ntk(base, d, length, s, n), rtol=1e-10)
    if n <= length:
        np.testing.assert_array_equal(got, pu.frequencies(d, base))
    else:
        bracket = s * n / length - (s - 1)
        np.testing.assert_allclose(got, rope_frequencies(d, base=base, scaling=ntk(bracket)), rtol=1e-10)
        assert got[0] == 1.0  # pair 0 never changes
        np.testing.assert_allclose(pu.frequencies(d, base)[-1] / got[-1], bracket, rtol=1e-9)


@given(
    d=d_models.filter(lambda d: d > 2),
    halves=st.integers(min_value=2, max_value=128),
    half_length=st.integers(min_value=8, max_value=100_000),
)
def test_dynamic_at_s_times_l_is_the_ntk_alpha(d, halves, half_length):
    s, length = halves / 2, 2 * half_length
    n = halves * half_length  # = s·L exactly
    # at n = sL the bracket is s² − s + 1: the NTK "alpha", by which the last pair is divided
    got = rope_frequencies(d, scaling=dynamic(s, length), seq_len=n)
    alpha = s * s - s + 1 if n > length else 1.0
    np.testing.assert_allclose(pu.frequencies(d)[-1] / got[-1], alpha, rtol=1e-9)


def test_yarn_attention_scale_by_hand():
    assert yarn_attention_scale(1.0) == 1.0
    assert yarn_attention_scale(0.5) == 1.0
    assert yarn_attention_scale(math.e) == pytest.approx(1.1, rel=1e-15)
    assert yarn_attention_scale(math.exp(10.0)) == pytest.approx(2.0, rel=1e-15)


def test_yarn_attention_scale_against_both_sources():
    # jquesnelle/yarn scaled_rope/LlamaYaRNScaledRotaryEmbedding.py @ 995db5b5 and Hugging Face
    # release 5.23.0 (modeling_rope_utils.py): get_mscale returns 1 for scale ≤ 1.
    def get_mscale(scale):
        if scale <= 1:
            return 1.0
        return 0.1 * math.log(scale) + 1.0

    def hf_at_ef468064(factor):  # modeling_rope_utils.py @ ef468064: no guard
        return 0.1 * math.log(factor) + 1.0

    for s in (0.25, 0.5, 0.999, 1.0, 1.5, 4.0, 32.0):
        assert yarn_attention_scale(s) == get_mscale(s)
    assert hf_at_ef468064(0.5) < 1.0 == yarn_attention_scale(0.5)  # the versions differ below 1


#: Names of Hugging Face's rope parameters, transcribed from src/transformers/modeling_rope_utils.py
#: of release 5.23.0 (the _validate_*_rope_parameters required and optional keys, ROPE_INIT_FUNCTIONS);
#: "dynamic" from commit ef468064 (_validate_dynamic_scaling_rope_parameters: required rope_type and
#: factor, optional original_max_position_embeddings, with a TODO; _compute_dynamic_ntk_parameters reads
#: L from config.max_position_embeddings and never reads that key).
HF_ROPE_TYPES = {"default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional"}
HF_KEYS = {
    "linear": {"rope_type", "factor", "rope_theta"},
    "yarn": {
        "rope_type",
        "factor",
        "original_max_position_embeddings",
        "rope_theta",
        "attention_factor",
        "beta_fast",
        "beta_slow",
        "mscale",
        "mscale_all_dim",
        "truncate",
    },
    "llama3": {
        "rope_type",
        "factor",
        "original_max_position_embeddings",
        "low_freq_factor",
        "high_freq_factor",
        "rope_theta",
    },
    "dynamic": {"rope_type", "factor", "original_max_position_embeddings"},
}
#: The course's own rope_type names, with the keys they take (documented as the course's).
COURSE_ROPE_TYPES = {"ntk": {"rope_type", "factor"}}
#: Keys whose *use* is the course's own: Hugging Face accepts the name but computes with something else.
COURSE_USES = {"dynamic": {"original_max_position_embeddings"}}


def test_rule_names_are_hugging_faces_except_the_courses_own():
    from pe_utils.rope_scaling import RULES

    assert set(RULES) == (set(HF_KEYS) | set(COURSE_ROPE_TYPES))
    assert not set(COURSE_ROPE_TYPES) & HF_ROPE_TYPES  # "ntk" is not a Hugging Face type
    assert set(HF_KEYS) <= HF_ROPE_TYPES
    for rope_type, rule in RULES.items():
        keys = set(rule.required) | set(rule.optional)
        assert keys <= HF_KEYS.get(rope_type, COURSE_ROPE_TYPES.get(rope_type)), rope_type
    doc = " ".join(rope_scaling_doc().split())
    assert '"ntk"`` is the course\'s own name' in doc and "no such type" in doc
    # "dynamic": L is the course's required original_max_position_embeddings; in Hugging Face it is
    # the config's max_position_embeddings. The docstring must say both.
    for rope_type, keys in COURSE_USES.items():
        assert keys <= set(RULES[rope_type].required), rope_type
    assert "``max_position_embeddings``" in doc and "that use of the key is the course's own" in doc


def rope_scaling_doc():
    import pe_utils.rope_scaling

    return pe_utils.rope_scaling.__doc__


def test_scaling_dict_is_not_modified():
    rule = yarn(4.0, 6284)
    before = dict(rule)
    rope_frequencies(8, scaling=rule)
    assert rule == before


# --- property tests ----------------------------------------------------------------------------


@given(d=d_models, base=bases, s=any_factors)
def test_linear_divides_every_frequency(d, base, s):
    scaled = rope_frequencies(d, base=base, scaling=linear(s))
    np.testing.assert_allclose(scaled * s, pu.frequencies(d, base), rtol=1e-12)


@given(d=d_models.filter(lambda d: d > 2), base=bases, s=any_factors)
def test_ntk_keeps_pair_zero_and_divides_the_last_pair(d, base, s):
    omega = pu.frequencies(d, base)
    scaled = rope_frequencies(d, base=base, scaling=ntk(s))
    assert scaled[0] == 1.0
    np.testing.assert_allclose(scaled[-1] * s, omega[-1], rtol=1e-10)
    # in between: pair i is divided by s^(2i/(d−2)), a geometric step from 1 to s
    i = np.arange(d // 2)
    np.testing.assert_allclose(omega / scaled, s ** (2 * i / (d - 2)), rtol=1e-10)


@given(
    d=d_models,
    base=bases,
    s=factors,
    length=lengths,
    low=st.floats(min_value=0.1, max_value=8.0),
    gap=st.floats(min_value=0.1, max_value=32.0),
)
def test_llama3_bands(d, base, s, length, low, gap):
    high = low + gap
    omega = pu.frequencies(d, base)
    wavelength = 2 * np.pi / omega
    divisor = omega / rope_frequencies(d, base=base, scaling=llama3(s, length, low, high))
    fast = wavelength < length / high
    slow = wavelength > length / low
    np.testing.assert_allclose(divisor[fast], 1.0, rtol=1e-12)
    np.testing.assert_allclose(divisor[slow], s, rtol=1e-12)
    assert np.all(divisor >= 1 - 1e-12) and np.all(divisor <= s * (1 + 1e-12))
    assert np.all(np.diff(divisor) >= -1e-9 * s)  # slower pairs are never divided by less


@given(
    d=d_models,
    base=bases,
    s=factors,
    length=lengths,
    slow=st.floats(min_value=0.25, max_value=4.0),
    ratio=st.floats(min_value=1.5, max_value=128.0),
    truncate=st.booleans(),
)
def test_yarn_keeps_fast_pairs_and_divides_slow_pairs(d, base, s, length, slow, ratio, truncate):
    fast = slow * ratio
    assume(length > 2 * math.pi * slow)
    omega = pu.frequencies(d, base)
    rotations = length * omega / (2 * np.pi)  # turns of pair i within L positions
    rule = yarn(s, length, beta_fast=fast, beta_slow=slow, truncate=truncate)
    divisor = omega / rope_frequencies(d, base=base, scaling=rule)
    np.testing.assert_allclose(divisor[rotations > fast * (1 + 1e-9)], 1.0, rtol=1e-12)
    np.testing.assert_allclose(divisor[rotations < slow * (1 - 1e-9)], s, rtol=1e-12)
    assert np.all(divisor >= 1 - 1e-12) and np.all(divisor <= s * (1 + 1e-12))
    assert np.all(np.diff(divisor) >= -1e-9 * s)


@pytest.mark.parametrize("rope_type", ["linear", "ntk", "yarn", "llama3"])
@given(d=d_models.filter(lambda d: d > 2), base=bases, s=any_factors, length=lengths)
def test_every_divisor_lies_between_one_and_the_factor(rope_type, d, base, s, length):
    # s ≥ 1: 1 ≤ c_i ≤ s (pairs slow down); s < 1: s ≤ c_i ≤ 1 (pairs speed up).
    assume(length > 2 * math.pi)
    rules = {"linear": linear(s), "ntk": ntk(s), "yarn": yarn(s, length), "llama3": llama3(s, length)}
    rule = rules[rope_type]
    divisor = pu.frequencies(d, base) / rope_frequencies(d, base=base, scaling=rule)
    low, high = min(1.0, s), max(1.0, s)
    assert np.all(divisor >= low * (1 - 1e-12)) and np.all(divisor <= high * (1 + 1e-12))


@given(s=st.floats(min_value=1.0, max_value=1e6))
def test_yarn_attention_scale_formula(s):
    # √(1/t) = 0.1 ln s + 1 ≥ 1, and exp(10(scale − 1)) gives s back
    scale = yarn_attention_scale(s)
    assert scale >= 1.0
    np.testing.assert_allclose(np.exp(10 * (scale - 1)), s, rtol=1e-9)


ROPE_TAKES_SCALING = "scaling" in inspect.signature(pu.rope).parameters
RULE_EXAMPLES = [None, linear(4.0), ntk(4.0), yarn(8.0, 512), llama3(8.0, 512)]


@pytest.mark.skipif(not ROPE_TAKES_SCALING, reason="pe_utils.rope does not accept scaling yet")
@pytest.mark.parametrize("rule", RULE_EXAMPLES, ids=lambda r: "none" if r is None else r["rope_type"])
@given(
    d=d_models.filter(lambda d: d > 2),
    base=bases,
    p=st.integers(-3000, 3000),
    q=st.integers(-3000, 3000),
    shift=st.integers(-3000, 3000),
    layout=layouts,
    seed=st.integers(0, 2**16),
)
def test_rope_relative_identity_with_scaling(rule, d, base, p, q, shift, layout, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=(2, d))
    options = {"base": base, "layout": layout, "scaling": rule}
    score = pu.rope(a, p, **options) @ pu.rope(b, q, **options)
    moved = pu.rope(a, p + shift, **options) @ pu.rope(b, q + shift, **options)
    np.testing.assert_allclose(score, moved, atol=1e-9 * (1 + abs(score)) * d)


@pytest.mark.skipif(not ROPE_TAKES_SCALING, reason="pe_utils.rope does not accept scaling yet")
@pytest.mark.parametrize("rule", RULE_EXAMPLES[1:], ids=lambda r: r["rope_type"])
def test_rope_with_scaling_rotates_by_the_scaled_frequencies(rule):
    d, positions = 16, np.arange(40.0)
    x = np.random.default_rng(1).normal(size=(40, d))
    angles = np.outer(positions, rope_frequencies(d, scaling=rule))
    u, v = x[:, 0::2], x[:, 1::2]  # interleaved pairs, counter-clockwise
    expected = np.empty_like(x)
    expected[:, 0::2] = np.cos(angles) * u - np.sin(angles) * v
    expected[:, 1::2] = np.sin(angles) * u + np.cos(angles) * v
    np.testing.assert_allclose(pu.rope(x, positions, scaling=rule), expected, atol=1e-12)
    if rule["rope_type"] == "linear":  # position interpolation: p/s at the old ω
        interpolated = pu.rope(x, positions / 4.0)
        np.testing.assert_allclose(pu.rope(x, positions, scaling=rule), interpolated, atol=1e-12)


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scaling", "error", "words"),
    [
        ([("rope_type", "linear")], TypeError, "scaling must be None or a dict"),
        ("linear", TypeError, "scaling must be None or a dict"),
        ({"factor": 2.0}, ValueError, '"rope_type"'),
        ({"rope_type": "dynamic", "factor": 2.0}, ValueError, '"original_max_position_embeddings"'),
        ({"rope_type": "longrope", "factor": 2.0}, ValueError, "rope_type"),
        (
            {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 0},
            ValueError,
            "original_max_position_embeddings",
        ),
        ({"rope_type": None, "factor": 2.0}, ValueError, "rope_type"),
        ({"rope_type": "linear"}, ValueError, '"factor"'),
        ({"rope_type": "ntk"}, ValueError, '"factor"'),
        ({"rope_type": "yarn", "factor": 2.0}, ValueError, '"original_max_position_embeddings"'),
        (
            {
                "rope_type": "llama3",
                "factor": 2.0,
                "original_max_position_embeddings": 64,
                "low_freq_factor": 1.0,
            },
            ValueError,
            '"high_freq_factor"',
        ),
        (
            {
                "rope_type": "llama3",
                "factor": 2.0,
                "original_max_position_embeddings": 64,
                "high_freq_factor": 4.0,
            },
            ValueError,
            '"low_freq_factor"',
        ),
        (
            {"rope_type": "llama3", "factor": 2.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0},
            ValueError,
            '"original_max_position_embeddings"',
        ),
        ({**linear(2.0), "beta_fast": 32.0}, ValueError, '"beta_fast"'),
        (
            {**ntk(2.0), "original_max_position_embeddings": 64},
            ValueError,
            '"original_max_position_embeddings"',
        ),
        ({**yarn(2.0, 64), "attention_factor": 1.0}, ValueError, '"attention_factor"'),
        ({**yarn(2.0, 64), "type": "yarn"}, ValueError, '"type"'),
        ({**llama3(2.0, 64), "beta_slow": 1.0}, ValueError, '"beta_slow"'),
        ({**linear(2.0), 3: "x"}, TypeError, "keys must be strings"),
        (linear(0.0), ValueError, 'scaling["factor"]'),
        (linear(-2.0), ValueError, 'scaling["factor"]'),
        (linear(float("nan")), ValueError, 'scaling["factor"]'),
        (ntk(float("inf")), ValueError, 'scaling["factor"]'),
        (linear("2"), TypeError, 'scaling["factor"]'),
        (linear(True), TypeError, 'scaling["factor"]'),
        (linear(None), TypeError, 'scaling["factor"]'),
        (yarn(0.0, 64), ValueError, 'scaling["factor"]'),
        (llama3(float("nan"), 64), ValueError, 'scaling["factor"]'),
        (yarn(2.0, 0), ValueError, "original_max_position_embeddings"),
        (yarn(2.0, -64), ValueError, "original_max_position_embeddings"),
        (yarn(2.0, 64.5), TypeError, "original_max_position_embeddings"),
        (llama3(2.0, "8192"), TypeError, "original_max_position_embeddings"),
        (llama3(2.0, True), TypeError, "original_max_position_embeddings"),
        (yarn(2.0, 6), ValueError, "2π·beta_slow"),
        (yarn(2.0, 64, beta_fast=1.0, beta_slow=1.0), ValueError, 'scaling["beta_fast"]'),
        (yarn(2.0, 64, beta_fast=1.0, beta_slow=2.0), ValueError, 'scaling["beta_fast"]'),
        (yarn(2.0, 64, beta_fast=float("nan")), ValueError, 'scaling["beta_fast"]'),
        (yarn(2.0, 64, beta_slow=0.0), ValueError, 'scaling["beta_slow"]'),
        (yarn(2.0, 64, beta_slow="1"), TypeError, 'scaling["beta_slow"]'),
        (yarn(2.0, 64, truncate="yes"), TypeError, 'scaling["truncate"]'),
        (yarn(2.0, 64, truncate=None), TypeError, 'scaling["truncate"]'),
        (llama3(2.0, 64, low=4.0, high=1.0), ValueError, 'scaling["high_freq_factor"]'),
        (llama3(2.0, 64, low=2.0, high=2.0), ValueError, 'scaling["high_freq_factor"]'),
        (llama3(2.0, 64, low=0.0, high=4.0), ValueError, 'scaling["low_freq_factor"]'),
        (llama3(2.0, 64, low=1.0, high=float("inf")), ValueError, 'scaling["high_freq_factor"]'),
        (llama3(2.0, 64, low=None, high=4.0), TypeError, 'scaling["low_freq_factor"]'),
    ],
)
def test_bad_scaling_names_the_key(scaling, error, words):
    with pytest.raises(error, match=None) as info:
        rope_frequencies(8, scaling=scaling)
    assert words in str(info.value)


def test_ntk_needs_more_than_one_pair():
    with pytest.raises(ValueError, match="d_model > 2"):
        rope_frequencies(2, scaling=ntk(2.0))
    with pytest.raises(ValueError, match='"dynamic" needs d_model > 2'):
        rope_frequencies(2, scaling=dynamic(2.0, 16), seq_len=64)


@pytest.mark.parametrize(
    ("scaling", "seq_len", "error", "words"),
    [
        (None, 64, ValueError, "^seq_len is used only by scaling rope_type 'dynamic'"),
        (linear(2.0), 64, ValueError, "^seq_len is used only"),
        (yarn(2.0, 64), 128, ValueError, "^seq_len is used only"),
        (dynamic(2.0, 16), None, ValueError, "^seq_len is required for scaling rope_type 'dynamic'"),
        (dynamic(2.0, 16), 0, ValueError, "^seq_len must be a positive integer"),
        (dynamic(2.0, 16), -5, ValueError, "^seq_len must be a positive integer"),
        (dynamic(2.0, 16), 64.0, TypeError, "^seq_len must be a positive integer"),
        (dynamic(2.0, 16), True, TypeError, "^seq_len"),
        (dynamic(2.0, 16), "64", TypeError, "^seq_len"),
    ],
)
def test_bad_seq_len_is_refused_by_name(scaling, seq_len, error, words):
    with pytest.raises(error, match=words):
        rope_frequencies(8, scaling=scaling, seq_len=seq_len)


@pytest.mark.parametrize(
    ("d_model", "scaling", "seq_len", "words"),
    [
        # base·(4·10^300/16 − 3)^2 ≈ 10^4 · 6·10^598: beyond float64 (and 4.0 · 10**400 is no float at all)
        (
            4,
            dynamic(4.0, 16),
            10**300,
            r'^seq_len=100000… \(301 digits\) and scaling\["factor"\]=4.0: the new base',
        ),
        (4, dynamic(4.0, 16), 10**400, r'^seq_len=.* and scaling\["factor"\]=4.0: the new base'),
        (4, dynamic(1e300, 16), 10**6, r'^seq_len=1000000 and scaling\["factor"\]=1e\+300'),
        (4, ntk(1e300), None, r'^scaling\["factor"\]=1e\+300: the new base .* too large for float64'),
    ],
)
def test_a_base_beyond_float64_is_refused_by_name(d_model, scaling, seq_len, words):
    with pytest.raises(ValueError, match=words):
        rope_frequencies(d_model, scaling=scaling, seq_len=seq_len)


def test_large_but_representable_bases_still_work():
    # 10^4 · (4·10^18/16 − 3)^2 ≈ 6·10^38: far inside float64; the last pair turns by 1/√(base')
    got = rope_frequencies(4, scaling=dynamic(4.0, 16), seq_len=10**18)
    new_base = 1e4 * (4.0 * 1e18 / 16 - 3.0) ** 2
    np.testing.assert_allclose(got, [1.0, new_base**-0.5], rtol=1e-12)
    got = rope_frequencies(4, scaling=ntk(1e100))  # base·s^2 = 10^204
    np.testing.assert_allclose(got, [1.0, 1e-102], rtol=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"d_model": 7}, ValueError, "d_model"),
        ({"d_model": 8.0}, TypeError, "d_model"),
        ({"d_model": 8, "base": 1.0}, ValueError, "base"),
        ({"d_model": 8, "base": "10000"}, TypeError, "base"),
    ],
)
def test_bad_d_model_and_base(kwargs, error, words):
    with pytest.raises(error, match=words):
        rope_frequencies(**kwargs, scaling=linear(2.0))


@pytest.mark.parametrize(
    ("factor", "error"),
    [
        (0.0, ValueError),
        (-1.0, ValueError),
        (float("nan"), ValueError),
        (float("inf"), ValueError),
        ("2", TypeError),
        (True, TypeError),
        (None, TypeError),
        ([2.0], TypeError),
    ],
)
def test_bad_yarn_attention_scale(factor, error):
    with pytest.raises(error, match="factor"):
        yarn_attention_scale(factor)


@pytest.mark.parametrize(
    ("factor", "error"),
    [(0.0, ValueError), (-1.0, ValueError), (float("nan"), ValueError), ("2", TypeError), (True, TypeError)],
)
def test_yarn_attention_scale_names_its_own_argument(factor, error):
    with pytest.raises(error, match=r"^factor must be a finite positive") as info:
        yarn_attention_scale(factor)
    assert "scaling[" not in str(info.value)


def test_a_scaling_rule_is_data_and_a_malformed_rule_is_refused():
    from pe_utils.rope_scaling import RULES, Llama3Rule, ScalingRule, YarnRule, check_scaling

    assert isinstance(RULES["yarn"], YarnRule) and isinstance(RULES["llama3"], Llama3Rule)
    assert dict(RULES["yarn"].optional) == {"beta_fast": 32.0, "beta_slow": 1.0, "truncate": True}
    assert [name for name, rule in RULES.items() if rule.needs_d_above_2] == ["ntk", "dynamic"]
    with pytest.raises(ValueError, match="rope_type"):
        ScalingRule(("factor",))
    with pytest.raises(ValueError, match="both required and optional"):
        ScalingRule(("rope_type", "factor"), {"factor": 1.0})
    # each field of a rule is checked when the rule is made, and the message names the field
    keys = ("rope_type", "factor")
    for made, field in [
        (lambda: ScalingRule("rope_type factor"), "required"),  # a string holds "factor" as text
        (lambda: ScalingRule(["rope_type", "factor"]), "required"),
        (lambda: ScalingRule((1, *keys)), "required"),
        (lambda: ScalingRule(keys, ["beta"]), "optional"),
        (lambda: ScalingRule(keys, None), "optional"),
        (lambda: ScalingRule(keys, needs_d_above_2="no"), "needs_d_above_2"),
    ]:
        with pytest.raises(TypeError, match=f"^{field} must be"):
            made()
    # a rule whose own checks read a key it neither requires nor defaults is refused when made
    with pytest.raises(ValueError, match=r"YarnRule reads the key\(s\) \['truncate'\]"):
        YarnRule((*keys, "original_max_position_embeddings"), {"beta_fast": 32.0, "beta_slow": 1.0})
    with pytest.raises(ValueError, match=r"Llama3Rule reads the key\(s\) \['high_freq_factor'\]"):
        Llama3Rule((*keys, "low_freq_factor", "original_max_position_embeddings"))
    for d_model in ("64", 63, 0):  # d_model is checked too, before the dictionary
        with pytest.raises((TypeError, ValueError), match="d_model"):
            check_scaling({"rope_type": "linear", "factor": 2.0}, d_model)
    # check_scaling is the public name of the check rope_frequencies and the explorer share.
    assert check_scaling({"rope_type": "yarn", "factor": 2, "original_max_position_embeddings": 64}, 8) == {
        "rope_type": "yarn",
        "factor": 2.0,
        "original_max_position_embeddings": 64,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
        "truncate": True,
    }
