"""The checkers of notebook 11 accept the reference answers and explain typical mistakes.

Reference values are derived here by hand (counting tokens, logarithms, explicit loops),
independently of the checkers and of pe_utils.pipeline.
"""

import math

import numpy as np
import pytest

import pe_utils as pu
from pe_utils.exercises import nb11
from tests.exercise_contract import printed_solution_test

EXERCISES = [nb11.decode_position, nb11.position_ids, nb11.dynamic_base_multiplier, nb11.rotary_frequency]

test_printed_solution_is_accepted = printed_solution_test(EXERCISES)


# --- decode_position ---------------------------------------------------------------------


def test_decode_position_is_the_count_of_real_tokens():
    real_before = sum(nb11.DECODE_MASK)  # 4 prompt tokens precede the new one; ids start at 0
    assert real_before == 4
    assert nb11.decode_position.check(real_before)
    assert nb11.decode_position.check(np.int64(4))
    grown = np.array([list(nb11.DECODE_MASK) + [1]])
    assert nb11.decode_position.check(int(pu.positions_from_mask(grown)[0, -1]))


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [(7, "padding-blind"), (3, "last prompt token"), (5, "minus 1"), (8, "padding included")],
)
def test_decode_position_explains_mistakes(answer, phrase):
    result = nb11.decode_position.check(answer)
    assert not result and phrase in result.message


@pytest.mark.parametrize("answer", [4.5, "4", None, [4], 6, -1])
def test_decode_position_refuses_other_answers(answer):
    assert not nb11.decode_position.check(answer)


# --- position_ids ---------------------------------------------------------------------------


def ids_by_loop(mask):
    out = []
    for row in np.asarray(mask).tolist():
        count, ids = 0, []
        for m in row:
            count += m
            ids.append(count - 1 if m else 0)  # 5.x: padded slots 0
        out.append(ids)
    return np.array(out)


def test_position_ids_reference_matches_a_loop_and_pe_utils():
    for (mask,) in nb11.POSITION_ID_CASES:
        np.testing.assert_array_equal(nb11.position_ids.reference(mask), ids_by_loop(mask))
        np.testing.assert_array_equal(pu.positions_from_mask(mask), ids_by_loop(mask))
    assert nb11.position_ids.check(lambda mask: ids_by_loop(mask))
    assert nb11.position_ids.check(pu.positions_from_mask)


def test_the_cases_tell_the_mistakes_apart():
    # every typical mistake differs from the reference on some case (left padding, a padded slot)
    masks = [mask for (mask,) in nb11.POSITION_ID_CASES]
    assert any((mask[:, 0] == 0).any() for mask in masks) and any((mask[:, -1] == 0).any() for mask in masks)
    # the five typical mistakes, written here, differ from the loop and from each other on some case
    wrong = [
        lambda m: np.broadcast_to(np.arange(m.shape[1]), m.shape),
        lambda m: np.where(m == 0, 0, np.cumsum(m, axis=-1)),
        lambda m: np.cumsum(m, axis=-1) - 1,
        lambda m: np.where(m == 0, 1, np.cumsum(m, axis=-1) - 1),
        lambda m: np.cumsum(m, axis=-1) - m,
    ]
    outputs = [[f(m).tolist() for m in masks] for f in [ids_by_loop, *wrong]]
    assert all(outputs[i] != outputs[j] for i in range(6) for j in range(i))


@pytest.mark.parametrize(
    ("function", "phrase"),
    [
        (lambda mask: np.broadcast_to(np.arange(mask.shape[1]), mask.shape), "arange ids"),
        (lambda mask: np.where(mask == 0, 0, np.cumsum(mask, axis=-1)), "start at 1"),
        (lambda mask: np.cumsum(mask, axis=-1) - 1, "padded slots are −1"),
        (lambda mask: np.where(mask == 0, 1, np.cumsum(mask, axis=-1) - 1), "transformers 4.x"),
        (lambda mask: np.cumsum(mask, axis=-1) - mask, "exclusive cumulative sum"),
    ],
)
def test_position_ids_explains_mistakes(function, phrase):
    result = nb11.position_ids.check(function)
    assert not result and phrase in result.message


def test_a_wrong_function_is_shown_the_mask_it_got_wrong():
    # real tokens right, a padded last slot gets 7: first wrong on case 2, [[1, 1, 0], [0, 1, 1]]
    def pads_seven_on_the_right(mask):
        ids = np.where(mask == 0, 0, np.cumsum(mask, axis=-1) - 1)
        ids[:, -1] = np.where(mask[:, -1] == 0, 7, ids[:, -1])
        return ids

    message = nb11.position_ids.check(pads_seven_on_the_right).message
    assert "[[1 1 0] [0 1 1]]" in message and "array of shape" not in message
    assert all(mask.size <= 6 for (mask,) in nb11.POSITION_ID_CASES)  # small enough to be printed


def test_position_ids_reports_a_broken_function():
    assert "did you forget `return`" in nb11.position_ids.check(lambda mask: None).message
    assert "raised" in nb11.position_ids.check(lambda mask: 1 / 0).message
    assert not nb11.position_ids.check(np.cumsum)


# --- dynamic_base_multiplier -----------------------------------------------------------------


def test_dynamic_base_multiplier_by_logarithms():
    # bracket at n = sL: 4·4 − 3 = 13; multiplier 13^(128/126) = exp(ln 13 · 64/63)
    multiplier = math.exp(math.log(13) * 64 / 63)
    assert nb11.dynamic_base_multiplier.check(multiplier)
    assert nb11.dynamic_base_multiplier.check(13.54)
    # the same number from pe_utils: ω_1 = base'^(−2/d), so base' = ω_1^(−d/2)
    rule = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 4096}
    omega = pu.rope_frequencies(128, scaling=rule, seq_len=16384)
    assert math.isclose(omega[1] ** (-64) / 10000.0, multiplier, rel_tol=1e-9)
    assert "Close" in nb11.dynamic_base_multiplier.check(13.5).message


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (13, "its value at n = sL"),
        (4 ** (128 / 126), "static NTK-aware"),
        (4, "not multiplied by s"),
        (16 ** (128 / 126), "not 16"),
    ],
)
def test_dynamic_base_multiplier_explains_mistakes(answer, phrase):
    result = nb11.dynamic_base_multiplier.check(answer)
    assert not result and phrase in result.message


# --- rotary_frequency --------------------------------------------------------------------------


def test_rotary_frequency_is_one_tenth():
    # r = 24, i = 3: 10000^(−6/24) = 10^(−1)
    assert nb11.rotary_frequency.check(0.1)
    half_split = pu.rope(np.eye(96)[[3]], 1.0, layout="concatenated", rotary_dims=24)[0]
    # dimension 3 turns towards dimension 3 + 12 by ω_3 per position
    assert math.isclose(math.atan2(half_split[15], half_split[3]), 0.1, rel_tol=1e-12)
    assert not nb11.rotary_frequency.check(0.1001)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (10000 ** (-6 / 96), "head size"),
        (10000 ** (-3 / 24), "not −i/r"),
        (10000 ** (-3 / 96), "Two slips"),
        (0.2154, "pair i = 2"),
        (0.0464, "pair i = 4"),
    ],  # 10^(−2/3) = 0.21544, 10^(−4/3) = 0.046416
)
def test_rotary_frequency_explains_mistakes(answer, phrase):
    result = nb11.rotary_frequency.check(answer)
    assert not result and phrase in result.message
