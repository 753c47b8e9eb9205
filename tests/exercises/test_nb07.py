"""The checkers of notebook 07 accept the reference answers and explain typical mistakes."""

import numpy as np

import pe_utils as pu
from pe_utils.exercises import nb07
from tests.exercise_contract import printed_solution_test

EXERCISES = [nb07.float32_spacing, nb07.to_concatenated, nb07.t2t_slowest_frequency]

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


def test_t2t_slowest_frequency_reference_and_mistakes():
    reference = float(pu.frequencies_variant(512, denominator="d/2-1")[-1])
    assert nb07.t2t_slowest_frequency.check(reference)
    paper = float(pu.frequencies(512)[-1])
    assert "paper's denominator" in nb07.t2t_slowest_frequency.check(paper).message
    assert "wavelength" in nb07.t2t_slowest_frequency.check(2 * np.pi / reference).message
    assert "reciprocal" in nb07.t2t_slowest_frequency.check(1 / reference).message
