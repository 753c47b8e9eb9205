"""The checkers of notebook 08 accept the reference answers and explain typical mistakes."""

import numpy as np

import pe_utils as pu
from pe_utils.exercises import nb08
from tests.exercise_contract import printed_solution_test

EXERCISES = [nb08.rope_offset, nb08.bfloat16_position, nb08.half_split_to_interleaved]

test_printed_solution_is_accepted = printed_solution_test(EXERCISES)


def test_rope_offset_reference_and_mistakes():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(2, 8))
    score = pu.rope(a, 3) @ pu.rope(b, 10)
    # The offset k with a·R_k b equal to the score, found by trying every k in range (R_k b = rope(b, k)).
    matches = [k for k in range(-20, 21) if np.isclose(a @ pu.rope(b, k), score)]
    assert matches == [7]
    assert nb08.rope_offset.check(matches[0])
    assert "T_{p−q}" in nb08.rope_offset.check(-7).message
    assert "subtract" in nb08.rope_offset.check(13).message
    assert not nb08.rope_offset.check(6)


def test_bfloat16_position_reference_and_mistakes():
    # float32 route, independent of round_to_bfloat16: keep the top 16 bits, rounding to even.
    bits = int(np.float32(3001).view(np.uint32))
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    reference = float(np.uint32(rounded).view(np.float32))
    assert nb08.bfloat16_position.check(reference)
    assert nb08.bfloat16_position.check(pu.round_to_bfloat16(3001))
    assert "8" in nb08.bfloat16_position.check(3001).message
    assert "nearest" in nb08.bfloat16_position.check(2992).message
    assert "float16" in nb08.bfloat16_position.check(float(np.float16(3001))).message
    assert "16 apart" in nb08.bfloat16_position.check(8 * round(3001 / 8)).message  # numbers 8 apart
    assert "exactly" in nb08.bfloat16_position.check(2.0**11).message
    assert not nb08.bfloat16_position.check(3024)


def test_half_split_to_interleaved_reference_and_mistakes():
    exercise = nb08.half_split_to_interleaved

    def by_permutation(x):
        # layout_permutation(d) takes interleaved columns to halves; its inverse goes back.
        return x[..., np.argsort(pu.layout_permutation(x.shape[-1]))]

    assert exercise.check(by_permutation)

    # What the reorder is for: interleaved RoPE of the reordered vectors gives the half-split scores.
    rng = np.random.default_rng(8)
    a, b = rng.normal(size=(2, 16))
    for p, q in ((0, 3), (5, 2), (40, 41)):
        half_split = pu.rope(a, p, layout="concatenated") @ pu.rope(b, q, layout="concatenated")
        reordered = pu.rope(exercise.reference(a), p) @ pu.rope(exercise.reference(b), q)
        np.testing.assert_allclose(reordered, half_split, atol=1e-12)

    def backwards(x):
        return np.concatenate([x[..., 0::2], x[..., 1::2]], axis=-1)

    assert "other way" in exercise.check(backwards).message

    def swapped(x):
        half = x.shape[-1] // 2
        out = np.empty_like(x)
        out[..., 0::2], out[..., 1::2] = x[..., half:], x[..., :half]
        return out

    assert "p − q" in exercise.check(swapped).message

    def one_vector_only(x):
        half = len(x) // 2  # the first axis: fine for a vector, not for a batch
        out = np.empty_like(x)
        out[0::2], out[1::2] = x[:half], x[half:]
        return out

    assert "batch" in exercise.check(one_vector_only).message
    assert "raised" in exercise.check(lambda x: x[99]).message
    assert not exercise.check(lambda x: x)
    assert not exercise.check(42)
