"""Exercises of notebook 11: positions in the pipeline.

Usage::

    from pe_utils.exercises import nb11
    answer = ...
    nb11.decode_position.check(answer)
"""

from __future__ import annotations

import numpy as np

from . import Exercise, FunctionExercise

# --- 1. the position of a decode step ------------------------------------------------

DECODE_MASK = (0, 0, 0, 1, 1, 1, 1)

decode_position = Exercise(
    question=(
        "A row of a left-padded batch has the attention mask [0, 0, 0, 1, 1, 1, 1] after prefill: three "
        "padded slots, then four prompt tokens. Hugging Face's generate now decodes the next token of this "
        "row (transformers 4.x and 5.x agree here). Which position id does that token get? Give a whole "
        "number."
    ),
    expected=4,
    hint=(
        "In 4.x, generate appends a 1 to the mask for the new token and computes cumsum(mask) − 1 over the "
        "whole row; the new token's id is the last entry (5.x adds 1 to the last prompt id: the same here). "
        "What does that count?"
    ),
    solution=(
        "grown = np.array([[0, 0, 0, 1, 1, 1, 1, 1]])       # the mask with the new token's 1\n"
        "answer = int(positions_from_mask(grown)[0, -1])   # = the 4 real tokens before it"
    ),
    mistakes=[
        (
            7,
            "7 is the new token's slot, the cache length with the padding counted: the padding-blind "
            "fallback (arange from the cache length). generate counts only the real tokens of the row.",
        ),
        (3, "3 is the last prompt token's position; the new token comes one after it."),
        (5, "5 is the number of 1s in the grown mask; the id is that count minus 1 (ids start at 0)."),
        (
            8,
            "8 counts every slot of the grown row, padding included; generate counts only real tokens, "
            "from 0.",
        ),
    ],
)


# --- 2. position ids from a mask, by hand ----------------------------------------------


def _hf_generate_ids(mask: np.ndarray) -> np.ndarray:
    """cumsum − 1 along each row, then 0 at the padded slots (transformers 5.x)."""
    mask = np.asarray(mask)
    ids = np.cumsum(mask, axis=-1) - 1
    return np.where(mask == 0, 0, ids)


def _arange_ids(mask: np.ndarray) -> np.ndarray:
    mask = np.asarray(mask)
    return np.broadcast_to(np.arange(mask.shape[-1]), mask.shape).copy()


def _cumsum_only(mask: np.ndarray) -> np.ndarray:
    mask = np.asarray(mask)
    return np.where(mask == 0, 0, np.cumsum(mask, axis=-1))


def _no_fill(mask: np.ndarray) -> np.ndarray:
    return np.cumsum(np.asarray(mask), axis=-1) - 1


def _fill_one(mask: np.ndarray) -> np.ndarray:
    mask = np.asarray(mask)
    return np.where(mask == 0, 1, np.cumsum(mask, axis=-1) - 1)


def _exclusive_cumsum(mask: np.ndarray) -> np.ndarray:
    """cumsum(mask) − mask, as TRL builds ids: real tokens right, a padded slot gets the count before it."""
    mask = np.asarray(mask)
    return np.cumsum(mask, axis=-1) - mask


# Small masks (at most 6 entries), so that a message can show the one a function got wrong.
POSITION_ID_CASES = (
    (np.array([[0, 0, 1], [1, 1, 1]]),),  # left padding; none
    (np.array([[1, 1, 0], [0, 1, 1]]),),  # right padding; left padding
    (np.array([[0, 0, 0, 0, 1, 1]]),),  # long left padding
    (np.array([[1, 0, 1, 1, 0, 1]]),),  # holes between tokens
    (np.array([[0, 0, 0], [1, 0, 0]]),),  # a row of padding only; right padding
)

position_ids = FunctionExercise(
    question=(
        "Write position_ids(mask): for a 2-D NumPy array of 0s and 1s, shape (batch, n) (1 for a token, "
        "0 for padding), return the position ids Hugging Face's generate computes in transformers 5.x: "
        "the real tokens of each row numbered 0, 1, 2, … in order, and 0 at every padded slot. The checker "
        "calls it on a few small masks: left- and right-padded, with holes, and a row of padding only."
    ),
    reference=_hf_generate_ids,
    cases=POSITION_ID_CASES,
    hint=(
        "np.cumsum(mask, axis=-1) counts the real tokens up to and including each slot; subtract 1, then "
        "put 0 where mask == 0 (np.where)."
    ),
    solution=(
        "def position_ids(mask):\n"
        "    ids = np.cumsum(mask, axis=-1) - 1     # the r-th real token gets r\n"
        "    return np.where(mask == 0, 0, ids)     # padded slots: 0, as generate does in 5.x\n"
        "answer = position_ids"
    ),
    mistakes=[
        (
            _arange_ids,
            "Those are arange ids, slot numbers: with left padding the first real token is not "
            "at 0. Count the real tokens instead (np.cumsum of the mask).",
        ),
        (_cumsum_only, "The real tokens start at 1: subtract 1 from the cumulative sum so the first is 0."),
        (
            _no_fill,
            "The real tokens are right, but the padded slots are −1 or other leftovers of the "
            "cumulative sum; generate sets them to 0.",
        ),
        (
            _fill_one,
            "That is the convention of transformers 4.x (padded slots 1). The question asks for "
            "5.x's, which puts 0 there; the real tokens agree.",
        ),
        (
            _exclusive_cumsum,
            "The real tokens are right, but each padded slot holds the number of real tokens "
            "before it: that is cumsum(mask) − mask, an exclusive cumulative sum (TRL builds "
            "its ids this way). generate puts 0 at every padded slot.",
        ),
    ],
)


# --- 3. the dynamic NTK base at n = sL --------------------------------------------------

DYNAMIC_S, DYNAMIC_D, DYNAMIC_L = 4.0, 128, 4096

dynamic_base_multiplier = Exercise(
    question=(
        f"Hugging Face's dynamic NTK rule with factor s = {DYNAMIC_S:g}, head size d = {DYNAMIC_D} and "
        f"L = {DYNAMIC_L}. At the current length n = {int(DYNAMIC_S * DYNAMIC_L)} = sL, by what number is "
        "the base multiplied? Give it to 4 significant digits."
    ),
    expected=(DYNAMIC_S**2 - DYNAMIC_S + 1) ** (DYNAMIC_D / (DYNAMIC_D - 2)),
    significant=4,
    hint=(
        "The new base is base·(s·n/L − (s − 1))^(d/(d−2)). Put n = sL into the bracket first, then raise "
        "it to d/(d−2)."
    ),
    solution=(
        "bracket = 4.0 * 16384 / 4096 - (4.0 - 1)   # s² − s + 1 = 13 at n = sL\n"
        "answer = bracket ** (128 / 126)            # about 13.54"
    ),
    mistakes=[
        (
            13.0,
            "13 is the bracket s·n/L − (s − 1) = s² − s + 1, its value at n = sL. The base is "
            "multiplied by the bracket to the power d/(d−2).",
        ),
        (
            DYNAMIC_S ** (DYNAMIC_D / (DYNAMIC_D - 2)),
            "That is the static NTK-aware rule with s = 4. The "
            "dynamic rule puts s·n/L − (s − 1) in place of s, which is 13 at n = sL.",
        ),
        (
            DYNAMIC_S,
            "The base is not multiplied by s: the bracket s·n/L − (s − 1) is 13 at n = sL, and it is "
            "raised to d/(d−2).",
        ),
        (16.0 ** (DYNAMIC_D / (DYNAMIC_D - 2)), "The bracket is s·n/L − (s − 1): 16 − 3 = 13, not 16."),
    ],
)


# --- 4. a frequency of a partial rotary -----------------------------------------------

NEOX_HEAD, NEOX_PCT, NEOX_PAIR = 96, 0.25, 3

rotary_frequency = Exercise(
    question=(
        f"GPT-NeoX-20B: head size {NEOX_HEAD}, rotary_pct = {NEOX_PCT:g}, base 10000, half-split pairs "
        f"within the rotated dimensions. What is the frequency ω_{NEOX_PAIR} (radians per position) of "
        f"rotated pair i = {NEOX_PAIR}? Give its exact value."
    ),
    expected=10000.0 ** (-2 * NEOX_PAIR / int(NEOX_HEAD * NEOX_PCT)),
    rtol=1e-9,  # an exact value (0.1): all its digits
    atol=0.0,
    hint=(
        "The rotated width is r = int(96·0.25) = 24, and the frequencies are those of a 24-dimensional "
        "RoPE: base^(−2i/r)."
    ),
    solution=(
        "r = int(96 * 0.25)                  # 24 rotated dimensions\n"
        "answer = 10000.0 ** (-2 * 3 / r)    # 10000^(−1/4) = 0.1"
    ),
    mistakes=[
        (
            10000.0 ** (-2 * NEOX_PAIR / NEOX_HEAD),
            "That uses the head size, base^(−2i/96): the bug of "
            "section 4. GPT-NeoX computes the frequencies over the rotated width r = 24.",
        ),
        (
            10000.0 ** (-NEOX_PAIR / int(NEOX_HEAD * NEOX_PCT)),
            "The exponent is −2i/r, not −i/r: pair i holds "
            "dimensions i and i + r/2, and 2i counts dimensions.",
        ),
        (
            10000.0 ** (-NEOX_PAIR / NEOX_HEAD),
            "Two slips: the exponent is −2i/r (not −i), over the rotated "
            "width r = 24 (not the head size 96).",
        ),
        (
            10000.0 ** (-2 * (NEOX_PAIR - 1) / int(NEOX_HEAD * NEOX_PCT)),
            "That is pair i = 2, 10000^(−4/24): "
            "pairs are counted from 0, so pair 3 is the fourth, with exponent −2·3/24.",
        ),
        (
            10000.0 ** (-2 * (NEOX_PAIR + 1) / int(NEOX_HEAD * NEOX_PCT)),
            "That is pair i = 4, 10000^(−8/24): "
            "pair i = 3 has exponent −2·3/24 = −1/4 (pairs are counted from 0).",
        ),
    ],
)

__all__ = ["decode_position", "dynamic_base_multiplier", "position_ids", "rotary_frequency"]
