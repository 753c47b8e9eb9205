"""The checkers of notebook 09 accept the reference answers and explain typical mistakes."""

import math

import numpy as np

import pe_utils as pu
from pe_utils.exercises import nb09
from tests.exercise_contract import printed_solution_test

EXERCISES = [nb09.ntk_base, nb09.llama3_divisor, nb09.yarn_logit_factor]

test_printed_solution_is_accepted = printed_solution_test(EXERCISES)


def test_ntk_base_reference_and_mistakes():
    # Independently: the base b' for which b'^(−(d−2)/d) = ω_last / s, solved by logarithms.
    d, s, base = 128, 4.0, 10000.0
    omega_last = base ** (-(d - 2) / d)
    new_base = math.exp(-math.log(omega_last / s) * d / (d - 2))
    assert nb09.ntk_base.check(new_base)
    assert nb09.ntk_base.check(float(f"{new_base:.6g}"))  # six significant digits
    scaled = pu.rope_frequencies(d, scaling={"rope_type": "ntk", "factor": s})
    np.testing.assert_allclose(new_base ** (-(d - 2) / d), scaled[-1], rtol=1e-12)
    assert "exponent d/(d−2) is missing" in nb09.ntk_base.check(40000.0).message
    assert "upside down" in nb09.ntk_base.check(base * s ** ((d - 2) / d)).message
    assert "grow" in nb09.ntk_base.check(base / s ** (d / (d - 2))).message
    assert "not d/2" in nb09.ntk_base.check(base * s**64).message
    assert not nb09.ntk_base.check("40000")
    assert not nb09.ntk_base.check(None)


def test_llama3_divisor_reference_and_mistakes():
    # A pair of wavelength exactly 4096: d = 4, base chosen so that λ_1 = 2π·base^(1/2) = 4096.
    base = (4096 / (2 * math.pi)) ** 2
    rule = {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    }
    divisor = float(pu.frequencies(4, base)[1] / pu.rope_frequencies(4, base=base, scaling=rule)[1])
    assert nb09.llama3_divisor.check(divisor)
    assert nb09.llama3_divisor.check(2.4)  # worked by hand: 1/(1/12 + 1/3)
    assert "slow pairs" in nb09.llama3_divisor.check(8).message
    assert "fast pairs" in nb09.llama3_divisor.check(1).message
    assert "blended the divisors" in nb09.llama3_divisor.check(17 / 3).message
    message = nb09.llama3_divisor.check(24 / 17).message  # t = 2/3: linear in λ, or swapped
    assert "linear in L/λ" in message and "swapped" in message
    assert not nb09.llama3_divisor.check(2.5)


def test_yarn_logit_factor_reference_and_mistakes():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 8))
    m = pu.yarn_attention_scale(16.0)
    ratio = float((m * q) @ (m * k) / (q @ k))  # measured on one pair
    assert nb09.yarn_logit_factor.check(ratio)
    assert nb09.yarn_logit_factor.check(round(ratio, 4))
    assert nb09.yarn_logit_factor.check(float(f"{ratio:.4g}"))  # four significant digits, as asked
    assert "Close" in nb09.yarn_logit_factor.check(1.6).message
    assert "twice" in nb09.yarn_logit_factor.check(m).message
    assert "natural logarithm" in nb09.yarn_logit_factor.check((0.1 * math.log10(16) + 1) ** 2).message
    assert "natural logarithm" in nb09.yarn_logit_factor.check(0.1 * math.log10(16) + 1).message
    assert "ln s" in nb09.yarn_logit_factor.check(16).message
    assert "temperature" in nb09.yarn_logit_factor.check(1 / m**2).message
    assert not nb09.yarn_logit_factor.check([ratio, ratio])
