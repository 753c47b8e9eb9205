"""The warm-up checker of notebook 00 accepts d/2 and explains the two typical mistakes."""

from pe_utils.exercises import nb00


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


