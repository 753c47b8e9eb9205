"""The checkers of notebook 06 accept the reference answers and explain typical mistakes.

References are computed here with ``math`` and NumPy, not read from the exercises.
"""

import math

import numpy as np

import pe_utils as pu
from pe_utils.exercises import nb06
from tests.exercise_contract import printed_solution_test

EXERCISES = [nb06.pe_norm, nb06.angle_after_scaling, nb06.changed_tokens, nb06.moved_encodings]

test_printed_solution_is_accepted = printed_solution_test(EXERCISES)


def test_pe_norm_reference_and_mistakes():
    row = [f(1000 / 10000 ** (2 * i / 128)) for i in range(64) for f in (math.sin, math.cos)]
    reference = math.sqrt(sum(value * value for value in row))
    assert nb06.pe_norm.check(reference)
    assert "squared" in nb06.pe_norm.check(64.0).message
    assert "√d" in nb06.pe_norm.check(math.sqrt(128)).message
    assert "number of entries" in nb06.pe_norm.check(128).message
    assert not nb06.pe_norm.check("eight")


def test_angle_reference_and_mistakes():
    d = 512
    scaled, pe = math.sqrt(d) * 1.0, math.sqrt(d / 2)
    # Law of cosines on the right triangle: cos θ = ‖x‖ / ‖x + PE‖.
    reference = math.degrees(math.acos(scaled / math.hypot(scaled, pe)))
    assert nb06.angle_after_scaling.check(reference)
    assert nb06.angle_after_scaling.check(35.26)  # two decimals are enough
    assert nb06.angle_after_scaling.check(35.3)  # as notebook 06 prints it
    assert not nb06.angle_after_scaling.check(35.2)
    assert not nb06.angle_after_scaling.check(35.4)
    unscaled = math.degrees(math.acos(1.0 / math.hypot(1.0, pe)))
    assert "without the √d" in nb06.angle_after_scaling.check(unscaled).message
    assert "radians" in nb06.angle_after_scaling.check(math.radians(reference)).message
    assert "between PE(p) and the sum" in nb06.angle_after_scaling.check(90 - reference).message
    # ‖PE‖ taken as √d instead of √(d/2): the legs are equal, 45°.
    assert "It is √(d/2)" in nb06.angle_after_scaling.check(45.0).message
    assert not nb06.angle_after_scaling.check(40.0)


def test_angle_reference_matches_a_simulation():
    d = 512
    rng = np.random.default_rng(5)
    x = rng.normal(scale=1 / math.sqrt(d), size=(200, d)) * math.sqrt(d)
    pe = pu.encode_positions(rng.integers(0, 1000, size=200), d)
    summed = x + pe
    cos = np.sum(x * summed, axis=1) / np.linalg.norm(x, axis=1) / np.linalg.norm(summed, axis=1)
    assert abs(float(np.degrees(np.arccos(cos)).mean()) - nb06.angle_after_scaling.expected) < 1.5


def test_changed_tokens_reference_and_mistakes():
    tokens = ["one", "two", "three", "four", "five", "six"]
    d = 8
    W_q, W_k, W_v = pu.fixed_weights(d, seed=0)
    X = pu.token_embeddings(tokens, d)
    pe = pu.sinusoidal_pe(6, d)
    before = pu.self_attention(X + pe, W_q, W_k, W_v)
    # Move the words, keep the encodings: the word at position 1 goes to 4 and back.
    moved = X.copy()
    moved[[1, 4]] = X[[4, 1]]
    after = pu.self_attention(moved + pe, W_q, W_k, W_v)
    where_now = {word: tokens.index(word) for word in tokens}
    where_now["two"], where_now["five"] = 4, 1
    change = {
        word: float(np.linalg.norm(after[where_now[word]] - before[tokens.index(word)])) for word in tokens
    }
    least = min(change, key=change.get)
    assert all(value > 1e-3 for value in change.values())  # all change (section 1's finding)
    assert nb06.changed_tokens.check(least)
    assert nb06.changed_tokens.check(" One ")
    assert "'two' moved" in nb06.changed_tokens.check("two").message
    assert "'five' moved" in nb06.changed_tokens.check("five").message
    for other in set(tokens) - {least, "two", "five"}:
        assert not nb06.changed_tokens.check(other)
    assert "one of the words" in nb06.changed_tokens.check("seven").message


def test_changed_tokens_does_not_repeat_section_1():
    # section 1 asks how many outputs change (all); this one asks which changes least
    assert "least" in nb06.changed_tokens.question
    assert "How many" not in nb06.changed_tokens.question


def test_changed_tokens_question_names_the_weights_it_is_about():
    assert "fixed_weights(8)" in nb06.changed_tokens.question


def test_malformed_answers_get_a_message_not_an_error():
    for exercise in (nb06.pe_norm, nb06.angle_after_scaling):
        for answer in (None, "35.3", True, 35.3 + 0j, [6], {6}, print):
            result = exercise.check(answer)
            assert not result and "Expected a" in result.message
    for answer in (None, 6, True, ["encodings"], print):
        result = nb06.moved_encodings.check(answer)
        assert not result and "'encodings'" in result.message
    for answer in (None, 6, True, ["one"], print):
        result = nb06.changed_tokens.check(answer)
        assert not result and "'one'" in result.message


def test_changed_tokens_question_names_the_words_it_is_about():
    # the answer depends on the words: the question must say which (those of the test above)
    assert "'one two three four five six'" in nb06.changed_tokens.question


def test_moved_encodings_reference_and_mistakes():
    # Section 1's sentences and weights: which input reproduces the colleague's finding?
    d = 8
    W_q, W_k, W_v = pu.fixed_weights(d)
    X_a = pu.token_embeddings("the developer deployed the agent".split(), d)
    pe = pu.sinusoidal_pe(5, d)
    P = np.eye(5)[[0, 4, 2, 3, 1]]
    Y = pu.self_attention(X_a + pe, W_q, W_k, W_v)
    everything_moved = pu.self_attention(P @ X_a + P @ pe, W_q, W_k, W_v)
    encodings_stay = pu.self_attention(P @ X_a + pe, W_q, W_k, W_v)
    assert np.allclose(everything_moved, P @ Y, atol=1e-12)  # the colleague's finding
    assert not np.allclose(encodings_stay, P @ Y, atol=1e-3)  # sentence b, done right
    # So what moved and should not have is P @ pe: the encodings.
    assert nb06.moved_encodings.check("encodings")
    assert nb06.moved_encodings.check(" Encodings. ")
    assert "test itself" in nb06.moved_encodings.check("words").message
    assert "no weight moved" in nb06.moved_encodings.check("weights").message
    for synonym in ("encoding", "the encodings", "PE", "positions", " Positional encodings. ", "PE(p)"):
        assert nb06.moved_encodings.check(synonym), synonym
    other = nb06.moved_encodings.check("tokens")
    assert not other and "'encodings'" in other.message
