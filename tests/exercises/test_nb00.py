"""The warm-up checker of notebook 00 accepts d/2 and explains the two typical mistakes."""

from pe_utils.exercises import nb00
from tests.exercise_contract import printed_solution_test

test_printed_solution_is_accepted = printed_solution_test([nb00.pairs_in_encoding])


def test_reference_answer_is_accepted():
    d = 8
    pairs = len(range(0, d, 2))  # dimensions 0, 2, 4, 6 each start a pair
    assert nb00.pairs_in_encoding.check(pairs)
    assert nb00.pairs_in_encoding.check(float(pairs))


def test_counting_dimensions_instead_of_pairs_is_explained():
    result = nb00.pairs_in_encoding.check(8)
    assert not result
    assert "each pair uses two" in result.message


def test_last_index_instead_of_count_is_explained():
    result = nb00.pairs_in_encoding.check(3)
    assert not result
    assert "last pair" in result.message


def test_other_answers_get_a_generic_explanation():
    assert not nb00.pairs_in_encoding.check(5)
    assert not nb00.pairs_in_encoding.check("four")


def test_text_and_booleans_are_refused_with_what_was_expected():
    for answer in ("4", True, None, 4 + 0j):
        result = nb00.pairs_in_encoding.check(answer)
        assert not result
        assert "Expected a number" in result.message
