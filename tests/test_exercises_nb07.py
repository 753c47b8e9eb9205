"""The checkers of notebook 07 accept the reference answers and explain typical mistakes."""

import numpy as np
from exercise_contract import printed_solution_test

import pe_utils as pu
from pe_utils.exercises import nb07

EXERCISES = [nb07.float32_spacing, nb07.to_concatenated, nb07.rope_offset]

test_printed_solution_is_accepted = printed_solution_test(EXERCISES, ["answer", "to_concatenated", "answer"])


def test_float32_spacing_reference_and_mistakes():
    reference = float(np.nextafter(np.float32(1e6), np.float32(np.inf)) - np.float32(1e6))
    assert nb07.float32_spacing.check(reference)
    assert "machine epsilon" in nb07.float32_spacing.check(float(np.finfo(np.float32).eps)).message
    assert "float64" in nb07.float32_spacing.check(float(np.spacing(1e6))).message
    assert "2²⁰" in nb07.float32_spacing.check(0.125).message
    assert "half the gap" in nb07.float32_spacing.check(0.03125).message


def test_to_concatenated_reference_and_mistakes():
    def by_permutation(table):
        return table @ pu.permutation_matrix(pu.layout_permutation(table.shape[1])).T

    assert nb07.to_concatenated.check(by_permutation)
    assert nb07.to_concatenated.check(lambda t: pu.convert_layout(t, "interleaved", "concatenated"))

    def backwards(table):
        return pu.convert_layout(table, "concatenated", "interleaved")

    assert "other way" in nb07.to_concatenated.check(backwards).message

    def cos_first(table):
        return np.hstack([table[:, 1::2], table[:, 0::2]])

    assert "cosines first" in nb07.to_concatenated.check(cos_first).message
    assert "unchanged" in nb07.to_concatenated.check(lambda table: table.copy()).message
    assert "raised" in nb07.to_concatenated.check(lambda table: table[:, 99]).message
    assert not nb07.to_concatenated.check(42)


def test_rope_offset_reference_and_mistakes():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(2, 8))
    score = pu.rope(a, 3) @ pu.rope(b, 10)
    # Find the offset k with a·T_k b equal to the score, by trying every k in range.
    k = next(k for k in range(-20, 21) if np.isclose(a @ pu.shift_matrix(k, 8) @ b, score))
    assert nb07.rope_offset.check(k)
    assert "sign is flipped" in nb07.rope_offset.check(-k).message
    assert "subtract" in nb07.rope_offset.check(13).message
