"""The checkers of notebook 08 accept the reference answers and explain typical mistakes."""

import numpy as np
from exercise_contract import printed_solution_test

import pe_utils as pu
from pe_utils.exercises import nb08

EXERCISES = [nb08.rope_offset, nb08.bfloat16_position, nb08.rotate_half]

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


def test_rotate_half_reference_and_mistakes():
    def by_matrix(x):
        # rotate_half as a matrix: the quarter turn R(π/2) = [[0, −1], [1, 0]] on each pair (i, i + d/2)
        d = x.shape[-1]
        half = d // 2
        quarter = np.zeros((d, d))
        quarter[np.arange(half), np.arange(half) + half] = -1.0
        quarter[np.arange(half) + half, np.arange(half)] = 1.0
        return x @ quarter.T

    assert nb08.rotate_half.check(by_matrix)

    # x·cos + rotate_half(x)·sin with the reference equals pe_utils.rope in the concatenated layout.
    x = np.arange(1.0, 9.0)
    theta = np.tile(pu.frequencies(8) * 5.0, 2)
    np.testing.assert_allclose(
        x * np.cos(theta) + nb08.rotate_half.reference(x) * np.sin(theta),
        pu.rope(x, 5.0, layout="concatenated"),
        atol=1e-12,
    )

    def clockwise(x):
        return -by_matrix(x)

    assert "clockwise" in nb08.rotate_half.check(clockwise).message

    def every_two(x):
        out = np.empty_like(x)
        out[..., 0::2], out[..., 1::2] = -x[..., 1::2], x[..., 0::2]
        return out

    assert "rotate_every_two" in nb08.rotate_half.check(every_two).message
    assert "reflection" in nb08.rotate_half.check(lambda x: np.roll(x, x.shape[-1] // 2, axis=-1)).message
    assert "raised" in nb08.rotate_half.check(lambda x: x[99]).message

    def one_vector_only(x):
        half = len(x) // 2  # the first axis: fine for a vector, not for a batch
        return np.concatenate([-x[half:], x[:half]])

    assert "batch" in nb08.rotate_half.check(one_vector_only).message
    assert not nb08.rotate_half.check(lambda x: x)
    assert not nb08.rotate_half.check(42)
