"""Exercises of notebook 13: what a model does with position.

Usage::

    from pe_utils.exercises import nb13
    answer = ...
    nb13.start_token_weight.check(answer)
"""

from __future__ import annotations

import math

from . import Exercise

# --- 1. the start token's weight under uniform causal attention ----------------------

START_POSITION = 9

start_token_weight = Exercise(
    question=(
        "A causal head with equal scores and one-hot values, a start token at p = 0 (and nowhere "
        f"else). What is o_{START_POSITION}[<s>], the output's entry for the start token at "
        f"p = {START_POSITION}? Give its exact value."
    ),
    expected=1.0 / (START_POSITION + 1),
    rtol=1e-9,
    atol=0.0,
    hint=(
        "The causal mask leaves the query at p the positions 0 … p; equal scores share the "
        "attention equally among them. Only position 0 holds the start token."
    ),
    solution=("visible = 9 + 1        # positions 0 … 9\nanswer = 1 / visible   # only position 0 holds <s>"),
    mistakes=[
        (
            1.0 / START_POSITION,
            "That is 1/p. Positions start at 0, so the query at p sees p + 1 positions (the paper's 1/t "
            "counts from t = 1).",
        ),
        (
            1.0 / 8.0,
            "1/V would be a guess over a vocabulary of 8; the weight is shared by the visible positions.",
        ),
        (1.0, "That is a head that attends to the start token only; equal scores share the weight."),
    ],
)

# --- 2. the spread of a RoPE score of independent random vectors ----------------------

SPREAD_D = 64

random_score_spread = Exercise(
    question=(
        f"Independent q and κ drawn from N(0, I_d) with d = {SPREAD_D}. What is the standard "
        "deviation of the RoPE score q · R_k κ at offset k = 100? Give a whole number."
    ),
    expected=math.sqrt(SPREAD_D),
    hint=(
        "R_k κ is again N(0, I_d), independent of q. The score is a sum of d products of independent "
        "standard normals; each product has variance 1."
    ),
    solution=("variance = 64          # d products, each of variance 1\nanswer = variance ** 0.5"),
    mistakes=[
        (float(SPREAD_D), "That is the variance, d. The standard deviation is its square root."),
        (0.0, "That is the mean, 0 at every offset. The spread around it is not 0."),
        (1.0, "That is the spread of one product q_j (R_k κ)_j; the score adds d of them."),
        (math.sqrt(SPREAD_D / 2), "d/2 counts pairs; the score adds one product per dimension, d in all."),
    ],
)

# --- 3. p-RoPE: the slowest pair that still rotates ------------------------------------

P_ROPE_D, P_ROPE_BASE, P_ROPE_SHARE = 256, 1e6, 0.25
_KEPT = int(P_ROPE_SHARE * P_ROPE_D // 2)  # pairs that rotate: 0 … _KEPT − 1


def _wavelength(pair: int, width: int) -> float:
    return 2.0 * math.pi * P_ROPE_BASE ** (2.0 * pair / width)


slowest_rotating_wavelength = Exercise(
    question=(
        f"A head of d = {P_ROPE_D} with base {P_ROPE_BASE:.0e} and p-RoPE at p = {P_ROPE_SHARE}. What "
        "is the wavelength, in positions, of the slowest pair that still rotates? Give it to 3 "
        "significant digits."
    ),
    expected=_wavelength(_KEPT - 1, P_ROPE_D),
    significant=3,
    hint=(
        "p-RoPE keeps the fastest K = ⌊p·d/2⌋ pairs, i = 0 … K − 1, with their usual frequencies "
        "base^(−2i/d): the grid is cut, not respaced."
    ),
    solution=(
        "K = int(0.25 * 256 // 2)                    # 32 pairs rotate: 0 … 31\n"
        "answer = 2 * math.pi * 1e6 ** (2 * (K - 1) / 256)"
    ),
    mistakes=[
        (
            _wavelength(_KEPT - 1, 2 * _KEPT),
            "That respaces the grid over the rotated dimensions, base^(−2i/r) with r = 64, as GPT-NeoX's "
            "partial rotary does. p-RoPE keeps the exponent 2i/d of the whole head.",
        ),
        (
            _wavelength(_KEPT, P_ROPE_D),
            "That is pair K, the first unrotated one; the last rotating pair is K − 1.",
        ),
        (
            _wavelength(P_ROPE_D // 2 - 1, P_ROPE_D),
            "That is full RoPE's slowest pair. p-RoPE leaves the slowest pairs unrotated.",
        ),
        (
            _wavelength(_KEPT - 1, P_ROPE_D) / (2.0 * math.pi),
            "That is 1/ω, the positions per radian. A wavelength is one whole turn: 2π/ω.",
        ),
        (
            _wavelength(int(P_ROPE_SHARE * P_ROPE_D) - 1, P_ROPE_D),
            "That takes K = p·d = 64 pairs. A pair is two dimensions: K = ⌊p·d/2⌋ = 32 pairs rotate.",
        ),
        (
            2.0 * math.pi * 10000.0 ** (2.0 * (_KEPT - 1) / P_ROPE_D),
            "That uses base 10000; this head's base is 10⁶.",
        ),
    ],
)

# --- 4. the critical dimension of Llama 3 8B ---------------------------------------------

CRITICAL_D, CRITICAL_BASE, CRITICAL_LENGTH = 128, 500000.0, 8192


def _critical_argument(base: float, length: float) -> float:
    """``(d/2)·log_base(T/2π)``: the last pair index with ``λ_i ≤ T``, before rounding."""
    return CRITICAL_D / 2 * math.log(length / (2 * math.pi)) / math.log(base)


llama3_critical_dimension = Exercise(
    question=(
        f"Liu et al.'s critical dimension for d = {CRITICAL_D}, base {CRITICAL_BASE:.0f} and "
        f"T_train = {CRITICAL_LENGTH} (Llama 3 8B): the number of dimensions whose pair completes a "
        "whole turn within T_train. Liu et al. write eq. 13 with base 10000; putting a model's own base "
        "in its place is the course's computation, not a number from the paper. Give a whole number."
    ),
    expected=2 * math.ceil(_critical_argument(CRITICAL_BASE, CRITICAL_LENGTH)),
    hint=(
        "Pair i completes a turn within T when 2π·base^(2i/d) ≤ T, that is i ≤ (d/2)·log_base(T/2π). "
        "Count those pairs (from i = 0) and take two dimensions per pair."
    ),
    solution=(
        "x = 128 / 2 * math.log(8192 / (2 * math.pi)) / math.log(500000)   # 34.98\n"
        "answer = 2 * (math.floor(x) + 1)    # pairs 0 … 34, two dimensions each"
    ),
    mistakes=[
        (
            math.ceil(_critical_argument(CRITICAL_BASE, CRITICAL_LENGTH)),
            "That counts pairs. The critical dimension counts dimensions: two per pair.",
        ),
        (
            2 * math.floor(_critical_argument(CRITICAL_BASE, CRITICAL_LENGTH)),
            "Pairs i = 0 … ⌊x⌋ qualify: that is ⌊x⌋ + 1 pairs, not ⌊x⌋.",
        ),
        (
            2 * math.ceil(CRITICAL_D / 2 * math.log(CRITICAL_LENGTH) / math.log(CRITICAL_BASE)),
            "The 2π is missing: pair i's wavelength is 2π·base^(2i/d), so compare base^(2i/d) with T/2π.",
        ),
        (
            2 * math.ceil(_critical_argument(10000.0, CRITICAL_LENGTH)),
            "That uses base 10000; Llama 3 was trained with base 500000.",
        ),
    ],
)

__all__ = [
    "llama3_critical_dimension",
    "random_score_spread",
    "slowest_rotating_wavelength",
    "start_token_weight",
]
