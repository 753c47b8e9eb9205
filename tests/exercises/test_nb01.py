"""The checkers of notebook 01 accept the right answers and explain the typical wrong ones.

Reference answers are computed here independently of the exercises' own ``expected``.
"""

import itertools

import numpy as np
import pytest

from pe_utils import fixed_weights, permutation_matrix, token_embeddings
from pe_utils.exercises import nb01
from tests.exercise_contract import printed_solution_test


def _attention_loop(X, W_q, W_k, W_v):
    """Plain single-head attention, one query row at a time."""
    rows = []
    for x in X:
        scores = np.array([(x @ W_q) @ (y @ W_k) for y in X]) / np.sqrt(W_q.shape[1])
        weights = np.exp(scores - scores.max())
        weights /= weights.sum()
        rows.append(sum(w * (y @ W_v) for w, y in zip(weights, X, strict=True)))
    return np.array(rows)


test_printed_solution_is_accepted = printed_solution_test(
    [
        nb01.reverse_order,
        nb01.outputs_follow_words,
        nb01.compose_orders,
        nb01.pooled_output,
        nb01.sum_over_tokens,
        nb01.causal_unchanged_positions,
    ]
)


# reverse_order ------------------------------------------------------------------


def test_reverse_order_accepts_reversal():
    order = [4, 3, 2, 1, 0]
    X = np.arange(15.0).reshape(5, 3)
    assert np.array_equal(permutation_matrix(order) @ X, X[::-1])
    assert nb01.reverse_order.check(order)
    assert nb01.reverse_order.check(np.arange(5)[::-1])


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [([5, 4, 3, 2, 1], "numbered from 0"), ([0, 1, 2, 3, 4], "identity"), ([4, 3, 2, 1], "5 indices")],
)
def test_reverse_order_explains_mistakes(answer, phrase):
    result = nb01.reverse_order.check(answer)
    assert not result
    assert phrase in result.message


def test_reverse_order_rejects_other_permutation():
    result = nb01.reverse_order.check([4, 3, 2, 0, 1])
    assert not result
    assert "some values" in result.message


# outputs_follow_words ------------------------------------------------------------

SENTENCE_A = "the developer deployed the agent".split()
SENTENCE_C = "the agent the developer deployed".split()


def _sentence_outputs_by_loop():
    W_q, W_k, W_v = fixed_weights(8)
    Y_a = _attention_loop(token_embeddings(SENTENCE_A, 8), W_q, W_k, W_v)
    Y_c = _attention_loop(token_embeddings(SENTENCE_C, 8), W_q, W_k, W_v)
    return Y_a, Y_c


def test_outputs_follow_words_accepts_every_row_that_matches():
    # Every answer whose rows of Y_a equal Y_c row by row, found by a loop over all 5**5 lists.
    Y_a, Y_c = _sentence_outputs_by_loop()
    matching = [
        rows
        for rows in itertools.product(range(5), repeat=5)
        if np.allclose(Y_a[list(rows)], Y_c, atol=1e-12)
    ]
    assert sorted(matching) == [(0, 4, 0, 1, 2), (0, 4, 3, 1, 2), (3, 4, 0, 1, 2), (3, 4, 3, 1, 2)]
    for rows in matching:
        assert nb01.outputs_follow_words.check(list(rows)), rows
    assert nb01.outputs_follow_words.check(np.array([3.0, 4.0, 0.0, 1.0, 2.0]))


def test_outputs_follow_words_is_where_each_word_went():
    # The words of c, looked up in a: the two copies of "the" may point at either copy.
    rows = [SENTENCE_A.index(word) for word in SENTENCE_C]
    assert rows == [0, 4, 0, 1, 2]
    assert nb01.outputs_follow_words.check(rows)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        ([0, 1, 2, 3, 4], "moves with its word"),
        ([3, 1, 2, 0, 4], "moves with its word"),  # the identity with the other "the"
        ([2, 3, 4, 0, 1], "reverse question"),  # argsort([3, 4, 0, 1, 2])
        ([4, 5, 1, 2, 3], "numbered from 0"),
        ([1, 5, 1, 2, 3], "numbered from 0"),
    ],
)
def test_outputs_follow_words_explains_mistakes(answer, phrase):
    result = nb01.outputs_follow_words.check(answer)
    assert not result
    assert phrase in result.message


@pytest.mark.parametrize(
    "answer",
    [
        [3, 4, 0, 2, 1],
        [4, 3, 0, 1, 2],
        [3, 4, 0, 1],
        [3, 4, 0, 1, 2, 0],
        "3 4 0 1 2",
        [3.5, 4, 0, 1, 2],
        [-1, 4, 0, 1, 2],
    ],
)
def test_outputs_follow_words_refuses_other_answers(answer):
    result = nb01.outputs_follow_words.check(answer)
    assert not result and result.message


# compose_orders -----------------------------------------------------------------


def _compose_by_matrices(a, b):
    """The order array of P_a P_b, read off the product matrix: the column of the 1 in each row."""
    product = permutation_matrix(a) @ permutation_matrix(b)
    return product.argmax(axis=1)


def test_compose_orders_accepts_matrix_reading_and_indexing():
    assert nb01.compose_orders.check(_compose_by_matrices)
    assert nb01.compose_orders.check(lambda a, b: [b[r] for r in a])


def test_compose_orders_cases_do_not_commute():
    for a, b in nb01.compose_orders.cases:
        X = np.arange(3.0 * len(a)).reshape(len(a), 3)
        np.testing.assert_array_equal(
            permutation_matrix(a) @ (permutation_matrix(b) @ X), X[_compose_by_matrices(a, b)]
        )
    assert any(
        not np.array_equal(_compose_by_matrices(a, b), _compose_by_matrices(b, a))
        for a, b in nb01.compose_orders.cases
    )


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (lambda a, b: _compose_by_matrices(b, a), "other order"),
        (lambda a, b: np.asarray(a), "a alone"),
        (lambda a, b: np.asarray(b), "b alone"),
    ],
)
def test_compose_orders_explains_mistakes(answer, phrase):
    result = nb01.compose_orders.check(answer)
    assert not result
    assert phrase in result.message


def test_compose_orders_reports_errors_and_non_functions():
    result = nb01.compose_orders.check(lambda a, b: a[10])
    assert not result
    assert "raised IndexError" in result.message
    assert "Expected a function" in nb01.compose_orders.check([1, 0]).message


# pooled_output ------------------------------------------------------------------


def _pooled_inputs():
    X = token_embeddings(["a", "b", "c", "d", "e"], 6)
    P = permutation_matrix([4, 2, 0, 3, 1])
    return X, P, fixed_weights(6, d_v=3)


def test_pooled_output_accepts_mean_of_permuted_and_unpermuted():
    X, P, weights = _pooled_inputs()
    permuted = _attention_loop(P @ X, *weights).mean(axis=0)
    unpermuted = _attention_loop(X, *weights).mean(axis=0)
    assert permuted.shape == (3,)
    np.testing.assert_allclose(permuted, unpermuted, atol=1e-12)
    assert nb01.pooled_output.check(permuted)
    assert nb01.pooled_output.check(list(unpermuted))


def test_pooled_output_explains_sum():
    X, P, weights = _pooled_inputs()
    result = nb01.pooled_output.check(_attention_loop(P @ X, *weights).sum(axis=0))
    assert not result
    assert "sum over the 5 tokens" in result.message


def test_pooled_output_explains_causal_mask():
    X, P, (W_q, W_k, W_v) = _pooled_inputs()
    Xp = P @ X
    rows = []
    for r in range(len(Xp)):  # causal: row r attends to rows 0 … r only
        rows.append(_attention_loop(Xp[: r + 1], W_q, W_k, W_v)[r])
    result = nb01.pooled_output.check(np.mean(rows, axis=0))
    assert not result
    assert "causal mask" in result.message


def test_pooled_output_accepts_the_four_decimals_numpy_prints():
    X, P, weights = _pooled_inputs()
    exact = _attention_loop(P @ X, *weights).mean(axis=0)
    assert nb01.pooled_output.check(np.round(exact, 4))
    assert nb01.pooled_output.check([float(f"{value:.4f}") for value in exact])


def test_pooled_output_asks_for_more_digits_when_rounded_further():
    X, P, weights = _pooled_inputs()
    result = nb01.pooled_output.check(np.round(_attention_loop(P @ X, *weights).mean(axis=0), 2))
    assert not result
    assert "asks for the answer to 4 decimals" in result.message


def test_pooled_output_wrong_axis_names_shape():
    X, P, weights = _pooled_inputs()
    result = nb01.pooled_output.check(_attention_loop(P @ X, *weights).mean(axis=1))
    assert not result
    assert "shape (3,)" in result.message


# sum_over_tokens ----------------------------------------------------------------


def test_sum_over_tokens_is_invariant():
    X = np.arange(12.0).reshape(4, 3)
    P = permutation_matrix([2, 3, 1, 0])
    np.testing.assert_array_equal((P @ X).sum(axis=0), X.sum(axis=0))
    assert nb01.sum_over_tokens.check("invariant")
    assert nb01.sum_over_tokens.check("  Invariant ")


@pytest.mark.parametrize(("answer", "phrase"), [("equivariant", "f(PX) = P f(X)"), ("neither", "equal")])
def test_sum_over_tokens_explains_mistakes(answer, phrase):
    result = nb01.sum_over_tokens.check(answer)
    assert not result
    assert phrase in result.message


def test_sum_over_tokens_rejects_non_string():
    assert not nb01.sum_over_tokens.check(1)


# causal_unchanged_positions ------------------------------------------------------


def _causal_loop(X, W_q, W_k, W_v):
    """Causal attention written as a loop: row r attends to rows 0 … r only."""
    return np.array([_attention_loop(X[: r + 1], W_q, W_k, W_v)[r] for r in range(len(X))])


def test_causal_unchanged_positions_accepts_the_positions_found_by_a_loop():
    X = token_embeddings(["a", "b", "c", "d", "e"], 6)
    weights = fixed_weights(6)
    before = _causal_loop(X, *weights)
    after = _causal_loop(permutation_matrix([0, 2, 1, 3, 4]) @ X, *weights)
    unchanged = [r for r in range(5) if np.allclose(before[r], after[r], atol=1e-12)]
    assert unchanged == [0, 3, 4]
    assert nb01.causal_unchanged_positions.check(unchanged)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        ([3, 4], "Position 0 keeps its token"),
        ([0, 1, 2, 3, 4], "Without a mask"),
        ([1, 2], "whose tokens moved"),
        ([0], "Positions 3 and 4"),
        ([0, 3], "Position 4 keeps"),
        ([0, 4], "Position 3 keeps"),
        ([4, 0, 3], "increasing order"),
    ],
)
def test_causal_unchanged_positions_explains_mistakes(answer, phrase):
    result = nb01.causal_unchanged_positions.check(answer)
    assert not result
    assert phrase in result.message


@pytest.mark.parametrize(
    ("answer", "phrases"),
    [
        ([], ["Unchanged too: position 0", "position 3 keeps", "position 4 keeps"]),
        ([0, 2, 3, 4], ["Changed: position 2 now holds another token"]),
        ([1, 2, 3, 4], ["Unchanged too: position 0", "position 1 now holds", "position 2 now holds"]),
        ([2, 3, 4], ["order [1, 0, 2, 3, 4]"]),
        ([1, 4, 5], ["numbered from 0"]),
    ],
)
def test_causal_unchanged_positions_explains_every_other_list(answer, phrases):
    # Any list of positions 0 … 4 other than the answer is told which positions it misses
    # or adds, and why; the wrong length is never answered by the bare shape of the answer.
    result = nb01.causal_unchanged_positions.check(answer)
    assert not result
    assert "shape" not in result.message
    for phrase in phrases:
        assert phrase in result.message


def test_causal_unchanged_positions_never_gives_away_the_count():
    for mask in range(2**5):
        chosen = [r for r in range(5) if mask >> r & 1]
        result = nb01.causal_unchanged_positions.check(chosen)
        assert bool(result) == (chosen == [0, 3, 4])
        assert "shape" not in result.message


def test_sum_over_tokens_offers_only_the_two_words_asked_for():
    result = nb01.sum_over_tokens.check("both")
    assert not result
    assert "'equivariant' or 'invariant'" in result.message
    assert "neither" not in result.message


def test_compose_orders_explains_the_matrix_instead_of_the_order():
    result = nb01.compose_orders.check(lambda a, b: permutation_matrix(a) @ permutation_matrix(b))
    assert not result
    assert "order array" in result.message


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        ([4, 3], "increasing order"),
        ([0, 0, 3, 4], "listed more than once"),
        ([0, 3, 4, 5], "5 is not one of them"),
        ([3, 4, 5], "numbered from 0"),
        ([0, 3, 4.5], "whole numbers"),
        ("0 3 4", "as a list"),
    ],
)
def test_causal_unchanged_positions_judges_a_set_of_positions(answer, phrase):
    # Wrong lengths, repeats and positions out of range are named as such, never by a shape.
    message = nb01.causal_unchanged_positions.check(answer).message
    assert phrase in message, message
    assert "shape" not in message and "3 numbers" not in message, message


# Second readers' findings -------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        [True, False, False, True, True],
        np.array([True, False, False, True, True]),
        [1, 0, 0, 1, 1],
        np.array([1.0, 0.0, 0.0, 1.0, 1.0]),
        (0, 1, 1, 0, 0),
    ],
)
def test_causal_unchanged_positions_recognises_a_mask(answer):
    # One True/False (or 1/0) per position is a mask: the message says how to get positions.
    result = nb01.causal_unchanged_positions.check(answer)
    assert not result
    assert "np.flatnonzero(mask)" in result.message
    assert "more than once" not in result.message


def test_causal_unchanged_positions_mask_advice_gives_the_answer():
    # The advice works: flatnonzero of the right mask is the right answer.
    mask = np.zeros(5, dtype=bool)
    mask[[0, 3, 4]] = True
    assert nb01.causal_unchanged_positions.check(np.flatnonzero(mask))


@pytest.mark.parametrize(
    ("answer", "bad", "rest"),
    [
        ([3, 4, 0, 1, 7], "entry 4: 7 is not a row 0 … 4", "The other entries are right"),
        ([0, 4, 3, 1, 7], "entry 4: 7 is not a row 0 … 4", "The other entries are right"),
        ([3, 4, 0, 1, 2.5], "entry 4: 2.5 is not a row", "The other entries are right"),
        ([-1, 4, 0, 1, 2], "entry 0: -1 is not a row", "The other entries are right"),
        ([7, 4, 0, 2, 1], "entry 0: 7 is not a row", "3, 4 differ too"),
    ],
)
def test_outputs_follow_words_names_the_entry_that_is_no_row(answer, bad, rest):
    # Either copy of "the" is right in every entry that is a row; the bad entry is named.
    message = nb01.outputs_follow_words.check(answer).message
    assert bad in message and rest in message, message


@pytest.mark.parametrize("answer", [[0, 3, 4, 2, 1], [2, 3, 4, 0, 1], [0, 3, 4, 0, 1], [2, 3, 4, 2, 1]])
def test_outputs_follow_words_explains_the_inverse_order(answer):
    # Where each row of Y_a went in Y_c, found by a loop (rows 0 and 2 of Y_c are equal).
    Y_a, Y_c = _sentence_outputs_by_loop()
    assert all(np.allclose(Y_c[s], Y_a[t], atol=1e-12) for t, s in enumerate(answer))
    result = nb01.outputs_follow_words.check(answer)
    assert not result
    assert "reverse question" in result.message and "argsort" in result.message


def test_outputs_follow_words_one_based_with_either_the():
    for answer in ([4, 5, 1, 2, 3], [1, 5, 4, 2, 3], [4, 5, 4, 2, 3]):
        assert "numbered from 0" in nb01.outputs_follow_words.check(answer).message


@pytest.mark.parametrize("answer", [[4, 4, 4, 4, 4], [0, 0, 1, 2, 3], [4, 3, 2, 1, 1]])
def test_reverse_order_names_a_non_permutation(answer):
    result = nb01.reverse_order.check(answer)
    assert not result
    assert "not a permutation" in result.message


@pytest.mark.parametrize(
    "answer", ["permutation invariant", "Permutation-invariant", " permutation  invariant. "]
)
def test_sum_over_tokens_accepts_permutation_invariant(answer):
    assert nb01.sum_over_tokens.check(answer)


def test_sum_over_tokens_explains_permutation_equivariant():
    result = nb01.sum_over_tokens.check("permutation equivariant")
    assert not result and "f(PX) = P f(X)" in result.message
