"""Tests of pe_utils.training (notebook 10): task, forward pass, gradient, Adam, training.

Expected values are derived by hand or by explicit loops here, never copied from
the code's output; the gradient is checked against central finite differences.
"""

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pe_utils import rope, shift_matrix, sinusoidal_pe
from pe_utils.training import (
    NO_TARGET,
    SIZES,
    TEST_LENGTHS,
    TRAINING,
    VARIANTS,
    LookBackHead,
    adam_update,
    commuting_share,
    head_attention,
    head_output,
    head_scores,
    init_head,
    look_back_accuracy,
    look_back_loss,
    look_back_loss_and_gradient,
    look_back_predictions,
    look_back_targets,
    look_back_task,
    look_back_test_sets,
    offset_terms,
    train_head,
    training_data,
    with_start_token,
)

# --- the task -----------------------------------------------------------------


def test_targets_copy_the_token_k_places_back():
    tokens = np.array([[5, 1, 4, 2, 0], [3, 3, 1, 0, 2]])
    expected = np.array([[-1, -1, 5, 1, 4], [-1, -1, 3, 3, 1]])
    assert np.array_equal(look_back_targets(tokens, 2), expected)
    assert NO_TARGET == -1


def test_task_is_seeded_in_range_and_has_the_targets():
    tokens, targets = look_back_task(6, 9, 4, offset=3, seed=11)
    again, _ = look_back_task(6, 9, 4, offset=3, seed=11)
    other, _ = look_back_task(6, 9, 4, offset=3, seed=12)
    assert tokens.shape == targets.shape == (6, 9)
    assert tokens.min() >= 0 and tokens.max() <= 3
    assert np.array_equal(tokens, again) and not np.array_equal(tokens, other)
    for b in range(6):
        for p in range(9):
            assert targets[b, p] == (tokens[b, p - 3] if p >= 3 else -1)


# --- the forward pass -------------------------------------------------------------


def uniform_head(vocab_size, d_model):
    """All scores 0: attention is uniform over the visible prefix."""
    zeros = np.zeros((d_model, d_model))
    return LookBackHead("none", np.ones((vocab_size, d_model)), zeros, zeros)


def test_uniform_attention_outputs_the_prefix_histogram():
    tokens = np.array([[2, 0, 2, 1]])
    out = head_output(uniform_head(3, 4), tokens)[0]
    expected = np.array([[0, 0, 1], [1 / 2, 0, 1 / 2], [1 / 3, 0, 2 / 3], [1 / 4, 1 / 4, 2 / 4]])
    np.testing.assert_allclose(out, expected, atol=1e-15)


def test_scores_by_explicit_loops_for_the_additive_head():
    head = init_head("sinusoidal", 5, 6, d_k=4, seed=7)
    tokens = np.array([[4, 0, 3, 3, 1, 2, 0]])
    n = tokens.shape[1]
    pe = [
        [f(p * 10000.0 ** (-2 * (j // 2) / 6)) for j in range(6) for f in ((math.sin, math.cos)[j % 2],)]
        for p in range(n)
    ]
    scores = head_scores(head, tokens)[0]
    for p in range(n):
        x_p = head.embeddings[tokens[0, p]] + np.array(pe[p])
        for q in range(n):
            if q > p:
                assert scores[p, q] == -np.inf
                continue
            x_q = head.embeddings[tokens[0, q]] + np.array(pe[q])
            expected = sum((x_p @ head.W_q[:, c]) * (x_q @ head.W_k[:, c]) for c in range(4)) / 2.0
            assert scores[p, q] == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_rope_scores_depend_on_the_offset_only():
    head = init_head("rope", 3, 8, seed=1)
    tokens = np.full((1, 12), 2)  # one token everywhere: only positions differ
    scores = head_scores(head, tokens)[0]
    for offset in range(12):
        diagonal = np.diagonal(scores, offset=-offset)
        np.testing.assert_allclose(diagonal, diagonal[0], atol=1e-12)


@pytest.mark.parametrize("d_k", [2, 6, 8])
def test_rope_scores_by_explicit_loops_with_rope(d_k):
    # Independent of the head's rotation matrices: rotate each query and key with pe_utils.rope, one by one.
    head = init_head("rope", 5, 6, d_k=d_k, base=500.0, seed=3)
    tokens = np.array([[4, 0, 3, 3, 1, 2, 0, 4]])
    scores = head_scores(head, tokens)[0]
    x = head.embeddings[tokens[0]]
    for p in range(8):
        query = rope(x[p] @ head.W_q, float(p), base=500.0)
        for q in range(p + 1):
            key = rope(x[q] @ head.W_k, float(q), base=500.0)
            assert scores[p, q] == pytest.approx(query @ key / math.sqrt(d_k), rel=1e-12, abs=1e-12)


def test_hand_built_head_looks_k_back_up_to_length_80():
    # Query map T_{−k}ᵀ (rows): the query of p is PE(p − k); the score peaks at q = p − k.
    d, k = 16, 3
    W_q = 10 * np.sqrt(d) * shift_matrix(-k, d).T
    head = LookBackHead("sinusoidal", np.zeros((5, d)), W_q, np.eye(d))
    tokens, targets = look_back_task(8, 80, 5, offset=k, seed=4)
    attention = head_attention(head, tokens)
    assert np.all(np.argmax(attention[:, k:], axis=-1) == np.arange(80 - k))
    assert look_back_accuracy(head, tokens, targets) == 1.0


def test_accuracy_of_uniform_attention_by_hand():
    tokens = np.array([[0, 1, 0, 2], [1, 1, 2, 2]])
    targets = look_back_targets(tokens, 1)
    # argmax of the prefix histogram, ties to the smaller token id:
    # seq 0: p=1 {0,1} → 0 = t0 ✓; p=2 {0:2,1:1} → 0 ≠ 1; p=3 {0:2} → 0 = t2 ✓
    # seq 1: p=1 {1:2} → 1 ✓; p=2 {1:2,2:1} → 1 ✓; p=3 {1:2,2:2} → 1 ≠ 2
    assert look_back_accuracy(uniform_head(3, 2), tokens, targets) == pytest.approx(4 / 6)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 70), vocab=st.integers(2, 9))
def test_uniform_predictions_are_the_prefix_counts_argmax(seed, n, vocab):
    # With equal scores the prediction is the most frequent token of the prefix, ties to the
    # smallest id, whatever order the CPU adds the equal weights in: compare with integer counts.
    tokens = np.random.default_rng(seed).integers(0, vocab, size=(6, n))
    counts = np.zeros((6, n, vocab), dtype=int)
    for b in range(6):
        for p in range(n):
            for q in range(p + 1):
                counts[b, p, tokens[b, q]] += 1
    expected = np.argmax(counts, axis=-1)  # integer counts: exact ties, first id wins
    assert np.array_equal(look_back_predictions(uniform_head(vocab, 4), tokens), expected)


def test_learned_table_has_no_rows_beyond_its_length():
    head = init_head("learned", 4, 4, n_positions=6, seed=0)
    tokens, targets = look_back_task(2, 7, 4, offset=1, seed=0)
    with pytest.raises(ValueError, match="longer than the learned position table"):
        look_back_accuracy(head, tokens, targets)


@settings(max_examples=20, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    n=st.integers(2, 9),
    vocab=st.integers(2, 6),
)
def test_outputs_are_distributions(variant, seed, n, vocab):
    head = init_head(variant, vocab, 4, n_positions=n, seed=seed)
    tokens, _ = look_back_task(3, n, vocab, offset=1, seed=seed)
    out = head_output(head, tokens)
    assert np.all(out >= 0)
    np.testing.assert_allclose(out.sum(-1), 1.0, atol=1e-12)


# --- the loss and its gradient -----------------------------------------------------


def test_loss_of_uniform_attention_by_hand():
    tokens = np.array([[0, 1, 0]])
    targets = look_back_targets(tokens, 1)  # p=1: target 0, o=1/2; p=2: target 1, o=1/3
    expected = (-math.log(1 / 2) - math.log(1 / 3)) / 2
    assert look_back_loss(uniform_head(2, 2), tokens, targets) == pytest.approx(expected, rel=1e-12)


def test_loss_stays_finite_when_the_target_weight_underflows():
    d = 4
    head = LookBackHead("none", np.eye(3, d), 40 * np.eye(d), 40 * np.eye(d))
    tokens = np.array([[0, 1]])  # p=1 attends to itself (score 1600), target 0
    loss = look_back_loss(head, tokens, look_back_targets(tokens, 1))
    assert loss == pytest.approx(1600 / 2, rel=1e-12)  # −log softmax = s_11 − s_10 = 1600/√4


def test_gradient_where_the_target_weight_underflows():
    # Query 1 puts weight e^-1600 on key 0, which holds its target: the loss is (s_11 − s_10)/N, linear
    # in the scores, and R is the one-hot row of key 0. The gradient must be exact there too.
    d = 4
    head = LookBackHead("none", np.eye(3, d), 40 * np.eye(d), 40 * np.eye(d))
    tokens = np.array([[0, 1]])
    targets = look_back_targets(tokens, 1)
    loss, gradient = look_back_loss_and_gradient(head, tokens, targets)
    assert np.isfinite(loss) and all(np.all(np.isfinite(g)) for g in gradient.values())
    # s_pq = x_p W_q W_kᵀ x_qᵀ / 2, x_0 = e_0, x_1 = e_1: ∂(s_11 − s_10)/∂W_q = x_1ᵀ (x_1 − x_0) W_k / 2
    x0, x1 = np.eye(d)[0], np.eye(d)[1]
    expected_W_q = np.outer(x1, (x1 - x0) @ head.W_k) / 2
    expected_W_k = (np.outer(x1, x1 @ head.W_q) - np.outer(x0, x1 @ head.W_q)) / 2
    np.testing.assert_allclose(gradient["W_q"], expected_W_q, atol=1e-12)
    np.testing.assert_allclose(gradient["W_k"], expected_W_k, atol=1e-12)


def finite_difference(head, tokens, targets, name, index, h=1e-6):
    values = []
    for sign in (1, -1):
        array = getattr(head, name).copy()
        array[index] += sign * h
        values.append(look_back_loss(replace(head, **{name: array}), tokens, targets))
    return (values[0] - values[1]) / (2 * h)


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    vocab=st.integers(2, 5),
    half_d=st.integers(1, 4),
    half_dk=st.integers(1, 3),
    n=st.integers(2, 7),
    batch=st.integers(1, 3),
    data=st.data(),
)
def test_gradient_matches_central_finite_differences(variant, vocab, half_d, half_dk, n, batch, data):
    d, d_k = 2 * half_d, 2 * half_dk
    offset = data.draw(st.integers(1, n - 1))
    seed = data.draw(st.integers(0, 1000))
    head = init_head(variant, vocab, d, d_k=d_k, n_positions=n + data.draw(st.integers(0, 2)), seed=seed)
    tokens, targets = look_back_task(batch, n, vocab, offset=offset, seed=seed + 1)
    _, gradient = look_back_loss_and_gradient(head, tokens, targets)
    assert set(gradient) == set(head.trainable)
    for name, array in head.parameters().items():
        assert gradient[name].shape == array.shape
        for index in np.ndindex(array.shape):
            numeric = finite_difference(head, tokens, targets, name, index)
            assert gradient[name][index] == pytest.approx(numeric, rel=1e-5, abs=1e-8), (name, index)


# --- Adam and training -----------------------------------------------------------------


def test_first_adam_step_moves_each_entry_by_the_learning_rate():
    theta = np.array([1.0, -2.0, 0.5])
    g = np.array([3.0, -0.01, 200.0])
    new, m, v = adam_update(theta, g, np.zeros(3), np.zeros(3), 1, learning_rate=0.1)
    # m̂ = g, v̂ = g², so the step is 0.1 · g / (|g| + 1e-8)
    np.testing.assert_allclose(new, theta - 0.1 * g / (np.abs(g) + 1e-8), rtol=1e-12)
    np.testing.assert_allclose(m, 0.1 * g)
    np.testing.assert_allclose(v, 0.001 * g**2)


def test_second_adam_step_by_hand():
    # t = 2: m = 0.9·0.1·g1 + 0.1·g2, v = 0.999·0.001·g1² + 0.001·g2², corrected by 1 − β^2
    theta, g1, g2 = np.array([0.3, -1.0]), np.array([2.0, -0.5]), np.array([-1.0, 4.0])
    after_one, m, v = adam_update(theta, g1, np.zeros(2), np.zeros(2), 1, learning_rate=0.01)
    after_two, m, v = adam_update(after_one, g2, m, v, 2, learning_rate=0.01)
    m_hat = (0.09 * g1 + 0.1 * g2) / (1 - 0.81)
    v_hat = (0.000999 * g1**2 + 0.001 * g2**2) / (1 - 0.998001)
    expected = theta - 0.01 * np.sign(g1) - 0.01 * m_hat / (np.sqrt(v_hat) + 1e-8)
    np.testing.assert_allclose(after_two, expected, rtol=1e-7)


@pytest.mark.parametrize("variant", VARIANTS)
def test_training_is_adam_on_the_checked_gradient(variant):
    # train_head must be exactly: look_back_loss_and_gradient (checked against finite differences
    # above), then adam_update on every trained array, step after step.
    tokens, targets = look_back_task(5, 7, 4, offset=2, seed=8)
    head = init_head(variant, 4, 6, n_positions=9, seed=2)
    run = train_head(head, tokens, targets, steps=6, learning_rate=0.07)
    parameters = head.parameters()
    first = {name: np.zeros_like(a) for name, a in parameters.items()}
    second = {name: np.zeros_like(a) for name, a in parameters.items()}
    for step in range(1, 7):
        loss, gradient = look_back_loss_and_gradient(replace(head, **parameters), tokens, targets)
        assert run.losses[step - 1] == pytest.approx(loss, rel=1e-12)
        for name in parameters:
            parameters[name], first[name], second[name] = adam_update(
                parameters[name], gradient[name], first[name], second[name], step, learning_rate=0.07
            )
    for name, array in parameters.items():
        np.testing.assert_allclose(getattr(run.head, name), array, rtol=1e-12, atol=1e-15)
    assert run.head.trainable == head.trainable and np.array_equal(run.head.embeddings, head.embeddings)


@pytest.mark.parametrize("variant", VARIANTS)
def test_parts_of_a_batch_change_nothing_but_rounding(variant, monkeypatch):
    # Outputs, loss and gradient are computed a few sequences at a time (pe_utils.training.head._PART_SIZE);
    # one sequence per part must give the same numbers as the whole batch at once.
    from pe_utils.training import head as training

    tokens, targets = look_back_task(7, 9, 5, offset=3, seed=4)
    head = init_head(variant, 5, 6, n_positions=9, seed=6)
    whole = head_output(head, tokens), look_back_loss_and_gradient(head, tokens, targets)
    monkeypatch.setattr(training, "_PART_SIZE", 1)
    assert len(training._parts(head, tokens)) == 7
    parts = head_output(head, tokens), look_back_loss_and_gradient(head, tokens, targets)
    np.testing.assert_allclose(parts[0], whole[0], rtol=1e-12, atol=1e-15)
    assert parts[1][0] == pytest.approx(whole[1][0], rel=1e-12)
    for name, array in whole[1][1].items():
        np.testing.assert_allclose(parts[1][1][name], array, rtol=1e-10, atol=1e-15)


@settings(max_examples=30, deadline=None)
@given(length=st.integers(1, 70), seed=st.integers(0, 10_000))
def test_row_maximum_by_even_and_odd_entries_is_numpys(length, seed):
    # the softmax shifts each row by its maximum, found by pairing entries (pe_utils.training.head._row_max)
    from pe_utils.training import head as training

    rows = np.random.default_rng(seed).normal(size=(3, 4, length))
    rows[0, 1, seed % length] = -np.inf  # masked keys are −inf
    np.testing.assert_array_equal(training._row_max(rows), rows.max(axis=-1, keepdims=True))


def test_targets_the_head_cannot_see_are_refused():
    head = init_head("none", 4, 4, seed=0)
    tokens = np.array([[0, 1, 2, 3]])
    targets = np.array([[-1, 3, 0, 1]])  # token 3 is not among tokens[0, :2]
    with pytest.raises(ValueError, match=r"targets\[0, 1\] = 3 is not among tokens\[0, :2\]"):
        look_back_loss_and_gradient(head, tokens, targets)


def test_training_lowers_the_loss_and_leaves_the_start_unchanged():
    start = init_head("sinusoidal", 4, 8, seed=0)
    W_q_before = start.W_q.copy()
    tokens, targets = look_back_task(16, 8, 4, offset=1, seed=5)
    run = train_head(start, tokens, targets, steps=60, learning_rate=0.05)
    assert run.losses.shape == (60,)
    assert look_back_loss(run.head, tokens, targets) < 0.5 * run.losses[0]
    assert np.array_equal(start.W_q, W_q_before)


@settings(max_examples=6, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), data_seed=st.integers(0, 2**32 - 1))
def test_training_with_fixed_seeds_is_reproducible(variant, seed, data_seed):
    def run():
        tokens, targets = look_back_task(4, 6, 3, offset=2, seed=data_seed)
        head = init_head(variant, 3, 4, n_positions=6, seed=seed)
        return train_head(head, tokens, targets, steps=5, learning_rate=0.1)

    first, second = run(), run()
    assert np.array_equal(first.losses, second.losses)
    for name in first.head.trainable:
        assert np.array_equal(getattr(first.head, name), getattr(second.head, name))


# --- commuting share -----------------------------------------------------------------


def test_commuting_share_of_simple_matrices():
    d = 6
    assert commuting_share(shift_matrix(3, d)) == pytest.approx(1.0)
    assert commuting_share(np.eye(d)) == pytest.approx(1.0)
    off_block = np.zeros((d, d))
    off_block[0, 3] = 1.0  # outside every 2×2 diagonal block
    assert commuting_share(off_block) == 0.0
    reflection = np.diag([1.0, -1.0, 0, 0, 0, 0])  # a·I + b·J has no part here
    assert commuting_share(reflection) == pytest.approx(0.0, abs=1e-15)


def test_commuting_share_of_a_random_matrix_is_near_one_over_d():
    d = 64
    W = np.random.default_rng(0).normal(size=(d, d))
    assert commuting_share(W) == pytest.approx(1 / d, rel=0.3)


def test_commuting_relative_part_gives_a_toeplitz_form():
    W = np.random.default_rng(1).normal(size=(8, 8))
    from pe_utils import commuting_part

    pe = sinusoidal_pe(20, 8)
    form = pe @ commuting_part(W) @ pe.T
    for offset in range(-19, 20):
        diagonal = np.diagonal(form, offset=offset)
        np.testing.assert_allclose(diagonal, diagonal[0], atol=1e-10)


# --- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "phrase"),
    [
        ({"offset": 5}, ValueError, "offset"),
        ({"offset": 7}, ValueError, "smaller than the sequence length"),
        ({"offset": 0}, ValueError, "offset"),
        ({"offset": 1.5}, TypeError, "offset"),
        ({"n_sequences": 0}, ValueError, "empty batch"),
        ({"vocab_size": 1}, ValueError, "vocab_size must be at least 2"),
        ({"vocab_size": 0}, ValueError, "vocab_size"),
        ({"length": 0}, ValueError, "length"),
        ({"seed": -1}, ValueError, "seed"),
    ],
)
def test_task_bad_input(kwargs, error, phrase):
    arguments = {"n_sequences": 2, "length": 5, "vocab_size": 4, "offset": 1, "seed": 0} | kwargs
    with pytest.raises(error, match=phrase):
        look_back_task(**arguments)


@pytest.mark.parametrize(
    ("tokens", "error", "phrase"),
    [
        (np.zeros((0, 5), dtype=int), ValueError, "empty batch"),
        (np.zeros((2, 5)), TypeError, "tokens must be an integer array"),
        (np.zeros(5, dtype=int), ValueError, "tokens must be a 2-D array"),
        (np.array([[0, 1, 9]]), ValueError, "token ids"),
        (np.array([[0, -1, 2]]), ValueError, "token ids"),
    ],
)
def test_tokens_bad_input(tokens, error, phrase):
    head = init_head("none", 4, 4)
    with pytest.raises(error, match=phrase):
        head_output(head, tokens)


@pytest.mark.parametrize("learning_rate", [float("nan"), float("inf"), 0.0, -0.1])
def test_non_finite_or_non_positive_learning_rate(learning_rate):
    head = init_head("none", 3, 4)
    tokens, targets = look_back_task(2, 4, 3, offset=1, seed=0)
    with pytest.raises(ValueError, match="learning_rate must be a finite positive number"):
        train_head(head, tokens, targets, learning_rate=learning_rate)
    with pytest.raises(ValueError, match="learning_rate"):
        adam_update(np.zeros(2), np.ones(2), np.zeros(2), np.zeros(2), 1, learning_rate=learning_rate)


@pytest.mark.parametrize("learning_rate", ["0.1", True, None])
def test_learning_rate_of_the_wrong_type(learning_rate):
    head = init_head("none", 3, 4)
    tokens, targets = look_back_task(2, 4, 3, offset=1, seed=0)
    with pytest.raises(TypeError, match="learning_rate"):
        train_head(head, tokens, targets, learning_rate=learning_rate)


def test_other_bad_arguments_name_themselves():
    tokens, targets = look_back_task(2, 4, 3, offset=1, seed=0)
    head = init_head("none", 3, 4)
    cases = [
        (lambda: init_head("absolute", 3, 4), ValueError, "variant"),
        (lambda: init_head("none", 3, 5), ValueError, "d_model must be even"),
        (lambda: init_head("learned", 3, 4), ValueError, "n_positions"),
        (lambda: init_head("rope", 3, 4, d_k=3), ValueError, "d_k must be even"),
        (lambda: init_head("none", 3, 4, base=1.0), ValueError, "base"),
        (lambda: train_head(head, tokens, targets, steps=0), ValueError, "steps"),
        (lambda: train_head("head", tokens, targets), TypeError, "head must be a LookBackHead"),
        (lambda: look_back_loss(head, tokens, targets[:, :3]), ValueError, "targets must have the shape"),
        (lambda: look_back_loss(head, tokens, np.full_like(targets, -1)), ValueError, "at least one"),
        (lambda: look_back_loss(head, tokens, targets * 5), ValueError, "targets must be token ids"),
        (lambda: look_back_targets(tokens, 4), ValueError, "offset"),
        (
            lambda: adam_update(np.zeros(1), np.zeros(1), np.zeros(1), np.zeros(1), 0, learning_rate=0.1),
            ValueError,
            "step",
        ),
        (lambda: commuting_share(np.zeros((4, 4))), ValueError, "all zeros"),
        (lambda: commuting_share(np.ones((3, 3))), ValueError, "even"),
        (lambda: LookBackHead("learned", np.ones((2, 2)), np.eye(2), np.eye(2)), ValueError, "positions"),
    ]
    for call, error, phrase in cases:
        with pytest.raises(error, match=phrase):
            call()


@pytest.mark.parametrize(
    ("kwargs", "error", "phrase"),
    [
        ({"embeddings": np.ones((1, 4))}, ValueError, "embeddings must have at least 2 rows"),
        ({"embeddings": np.ones((3, 3))}, ValueError, "even, positive number of columns"),
        ({"embeddings": np.ones(4)}, ValueError, "embeddings must be a 2-D array"),
        ({"W_q": np.ones((3, 4))}, ValueError, "W_q and W_k must both have shape"),
        ({"W_k": np.ones((4, 2))}, ValueError, "W_q and W_k must both have shape"),
        ({"W_q": np.full((4, 4), np.nan)}, ValueError, "W_q must be finite"),
        ({"variant": "rope", "W_q": np.ones((4, 3)), "W_k": np.ones((4, 3))}, ValueError, "even number"),
        ({"variant": "learned", "positions": np.ones((5, 2))}, ValueError, "positions must have shape"),
        ({"base": 0.5}, ValueError, "base"),
    ],
)
def test_head_checks_its_arrays(kwargs, error, phrase):
    arguments = {"variant": "none", "embeddings": np.ones((3, 4)), "W_q": np.eye(4), "W_k": np.eye(4)}
    arguments |= kwargs
    with pytest.raises(error, match=phrase):
        LookBackHead(**arguments)


def _ones(shape=(2, 3)):
    return np.ones(shape)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"gradient": np.ones(3)}, ValueError, "gradient must have the shape of parameter"),
        ({"second": np.ones((3, 2))}, ValueError, "second must have the shape of parameter"),
        ({"gradient": np.full((2, 3), np.nan)}, ValueError, "gradient"),
        ({"beta1": 1.0}, ValueError, "beta1 must be a real number in"),
        ({"beta2": -0.1}, ValueError, "beta2 must be a real number in"),
        ({"beta1": True}, ValueError, "beta1"),
        ({"epsilon": 0.0}, ValueError, "epsilon must be a finite positive number"),
        ({"step": 0}, ValueError, "step must be a positive integer"),
        ({"step": 1.5}, TypeError, "step must be a positive integer"),
    ],
)
def test_adam_update_names_a_bad_argument_before_any_work(kwargs, error, words):
    arguments = {"parameter": _ones(), "gradient": _ones(), "first": _ones(), "second": _ones(), "step": 1}
    options = {"learning_rate": 0.1}
    for key in ("beta1", "beta2", "epsilon"):
        if key in kwargs:
            options[key] = kwargs.pop(key)
    arguments.update(kwargs)
    with pytest.raises(error, match=words):
        adam_update(**arguments, **options)


def test_train_head_refuses_too_many_steps_and_reports_divergence():
    tokens, targets = look_back_task(4, 8, 5, offset=1, seed=0)
    head = init_head("sinusoidal", 5, 8, seed=0)
    with pytest.raises(ValueError, match="steps must be at most"):
        train_head(head, tokens, targets, steps=10**13)
    with pytest.raises(ValueError, match="training diverged at step"), np.errstate(all="ignore"):
        train_head(head, tokens, targets, steps=20, learning_rate=1e300)


def test_commuting_share_follows_the_layout():
    # The same form written in the concatenated layout (rows and columns reordered) has the same share.
    matrix = np.random.default_rng(4).normal(size=(8, 8))
    to_halves = np.r_[np.arange(0, 8, 2), np.arange(1, 8, 2)]  # interleaved columns in halves order
    halves = matrix[np.ix_(to_halves, to_halves)]
    share = commuting_share(matrix)
    assert commuting_share(halves, layout="concatenated") == pytest.approx(share, rel=1e-12)
    assert commuting_share(halves) != pytest.approx(share, rel=1e-3)  # the wrong pairing differs


# --- p-RoPE: a "rope" head that rotates only its fastest pairs (notebook 13) -----------------------------


def _rotate_pairs_by_hand(u, position, kept, base=10000.0):
    """Interleaved pairs (2i, 2i+1) turned by position·base^(−2i/d) for i < kept, the rest left alone."""
    out = u.copy()
    for i in range(kept):
        angle = position * base ** (-2 * i / len(u))
        c, s = math.cos(angle), math.sin(angle)
        out[2 * i], out[2 * i + 1] = c * u[2 * i] - s * u[2 * i + 1], s * u[2 * i] + c * u[2 * i + 1]
    return out


@pytest.mark.parametrize(("proportion", "kept"), [(0.25, 1), (0.5, 2), (0.75, 3), (1.0, 4), (0.0, 0)])
def test_p_rope_scores_by_explicit_loops(proportion, kept):
    head = init_head("rope", 5, 6, d_k=8, seed=3, rope_proportion=proportion)
    tokens = np.array([[4, 0, 3, 3, 1, 2, 0, 4]])
    scores = head_scores(head, tokens)[0]
    x = head.embeddings[tokens[0]]
    for p in range(8):
        query = _rotate_pairs_by_hand(x[p] @ head.W_q, p, kept)
        for q in range(p + 1):
            key = _rotate_pairs_by_hand(x[q] @ head.W_k, q, kept)
            assert scores[p, q] == pytest.approx(query @ key / math.sqrt(8), rel=1e-12, abs=1e-12)


def test_rope_proportion_changes_no_random_draw():
    full, half = init_head("rope", 6, 8, seed=5), init_head("rope", 6, 8, seed=5, rope_proportion=0.5)
    for name in ("embeddings", "W_q", "W_k"):
        np.testing.assert_array_equal(getattr(full, name), getattr(half, name))
    assert full.rope_proportion == 1.0 and half.rope_proportion == 0.5


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 12), half_dk=st.integers(1, 4))
def test_p_rope_at_one_is_rope_and_at_zero_is_no_positions(seed, n, half_dk):
    rope_head = init_head("rope", 4, 6, d_k=2 * half_dk, seed=seed)
    tokens, _ = look_back_task(2, n, 4, offset=1, seed=seed + 1)
    at_one = replace(rope_head, rope_proportion=1.0)
    np.testing.assert_array_equal(head_scores(at_one, tokens), head_scores(rope_head, tokens))
    at_zero = replace(rope_head, rope_proportion=0.0)
    none = LookBackHead("none", rope_head.embeddings, rope_head.W_q, rope_head.W_k)
    np.testing.assert_allclose(
        head_scores(at_zero, tokens), head_scores(none, tokens), rtol=1e-12, atol=1e-12
    )


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), proportion=st.floats(0, 1))
def test_p_rope_scores_depend_on_the_offset_only(seed, proportion):
    head = init_head("rope", 3, 8, seed=seed, rope_proportion=proportion)
    scores = head_scores(head, np.full((1, 10), 2))[0]  # one token everywhere
    for offset in range(10):
        diagonal = np.diagonal(scores, offset=-offset)
        np.testing.assert_allclose(diagonal, diagonal[0], rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("proportion", [0.0, 0.25, 0.5, 0.75])  # d_k = 8: 0 to 3 of 4 pairs rotated
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 1000), n=st.integers(2, 6), data=st.data())
def test_p_rope_gradient_matches_central_finite_differences(proportion, seed, n, data):
    head = init_head("rope", 4, 4, d_k=8, seed=seed, rope_proportion=proportion)
    offset = data.draw(st.integers(1, n - 1))
    tokens, targets = look_back_task(2, n, 4, offset=offset, seed=seed + 1)
    _, gradient = look_back_loss_and_gradient(head, tokens, targets)
    for name, array in head.parameters().items():
        for index in np.ndindex(array.shape):
            numeric = finite_difference(head, tokens, targets, name, index)
            assert gradient[name][index] == pytest.approx(numeric, rel=1e-5, abs=1e-8), (name, index)


def test_p_rope_training_is_reproducible_and_learns_the_task():
    tokens, targets = look_back_task(32, 12, 6, offset=2, seed=9)
    start = init_head("rope", 6, 8, seed=1, rope_proportion=0.5)
    first, again = (train_head(start, tokens, targets, steps=60) for _ in range(2))
    np.testing.assert_array_equal(first.losses, again.losses)
    assert first.losses[-1] < 0.5 * first.losses[0] and first.head.rope_proportion == 0.5


@pytest.mark.parametrize(
    ("call", "error", "phrase"),
    [
        (lambda: init_head("rope", 3, 4, rope_proportion=1.5), ValueError, "rope_proportion must be"),
        (lambda: init_head("rope", 3, 4, rope_proportion=True), TypeError, "rope_proportion"),
        (lambda: init_head("rope", 3, 4, rope_proportion="0.5"), TypeError, "rope_proportion"),
        (lambda: init_head("sinusoidal", 3, 4, rope_proportion=0.5), ValueError, "variant 'rope' only"),
        (
            lambda: LookBackHead("none", np.ones((3, 4)), np.eye(4), np.eye(4), rope_proportion=0.5),
            ValueError,
            "variant 'rope' only",
        ),
        (
            lambda: LookBackHead("rope", np.ones((3, 4)), np.eye(4), np.eye(4), rope_proportion=float("nan")),
            ValueError,
            "rope_proportion",
        ),
    ],
)
def test_rope_proportion_bad_input(call, error, phrase):
    with pytest.raises(error, match=phrase):
        call()


# --- notebook 10's recipe (used again by notebook 13 and tools/sweep_13.py) ----------------------


def test_recipe_is_the_one_notebook_10_states():
    # §1 and §4 of notebook 10: V = 8, d = 16, n = 16, k = 2; 100 Adam steps at η = 0.05
    assert tuple(SIZES) == (8, 16, 16, 2) and SIZES.offset == 2 and SIZES.vocab_size == 8
    assert TRAINING == {"steps": 100, "learning_rate": 0.05}
    assert TEST_LENGTHS == (16, 32, 64)


@pytest.mark.parametrize("seed", [0, 4, 17])
def test_training_data_is_64_sequences_drawn_with_seed_100_plus_s(seed):
    tokens, targets = training_data(seed)
    by_numpy = np.random.default_rng(100 + seed).integers(0, 8, size=(64, 16))  # uniform over V = 8
    np.testing.assert_array_equal(tokens, by_numpy)
    np.testing.assert_array_equal(targets[:, 2:], by_numpy[:, :-2])  # k = 2 back
    assert np.all(targets[:, :2] == NO_TARGET)


def test_test_sets_are_2048_positions_per_length_from_seeds_11_12_14():
    sets = look_back_test_sets()
    assert list(sets) == [16, 32, 64]
    for (m, (tokens, targets)), seed, count in zip(sets.items(), (11, 12, 14), (128, 64, 32), strict=True):
        np.testing.assert_array_equal(tokens, np.random.default_rng(seed).integers(0, 8, size=(count, m)))
        np.testing.assert_array_equal(targets[:, 2:], tokens[:, :-2])
        assert tokens.size == 2048


def test_with_start_token_by_hand():
    tokens = np.array([[1, 2, 3, 4, 5], [0, 0, 7, 1, 6]])
    before = tokens.copy()
    marked, targets = with_start_token(tokens, start=9, offset=2)
    np.testing.assert_array_equal(marked, [[9, 2, 3, 4, 5], [9, 0, 7, 1, 6]])
    np.testing.assert_array_equal(targets, [[-1, -1, -1, 2, 3], [-1, -1, -1, 0, 7]])  # never <s>
    np.testing.assert_array_equal(tokens, before)  # not changed
    default, _ = with_start_token(tokens)  # notebook 10's sizes: <s> is token 8, k = 2
    assert np.all(default[:, 0] == 8)


@pytest.mark.parametrize(
    ("kwargs", "error", "phrase"),
    [
        ({"tokens": np.zeros((1, 3), dtype=int), "offset": 2}, ValueError, "offset"),
        ({"tokens": np.zeros((1, 5), dtype=int), "offset": 0}, ValueError, "offset"),
        ({"tokens": np.zeros((1, 5), dtype=int), "start": -1}, ValueError, "start"),
        ({"tokens": np.zeros((1, 5), dtype=int), "start": 1.5}, TypeError, "start"),
        ({"tokens": np.zeros((1, 5))}, TypeError, "tokens"),
        ({"tokens": np.zeros(5, dtype=int)}, ValueError, "tokens"),
    ],
)
def test_with_start_token_bad_input(kwargs, error, phrase):
    with pytest.raises(error, match=phrase):
        with_start_token(**kwargs)


@pytest.mark.parametrize("seed", [-1, 1.5, True])
def test_training_data_bad_seed(seed):
    with pytest.raises((TypeError, ValueError), match="seed"):
        training_data(seed)


# --- offset_terms: the mean-token score of a RoPE head, pair by pair ------------------------------


def _two_d_head(W_k):
    """d = d_k = 2, one pair with ω_0 = 1; every token's embedding is (1, 0), W_q = I: q̄ = (1, 0)."""
    return LookBackHead("rope", np.array([[1.0, 0.0], [1.0, 0.0]]), np.eye(2), np.asarray(W_k, float))


def test_offset_terms_of_one_pair_by_hand():
    j = np.array([0.0, 1.0, 2.0, -3.0])
    # κ̄ = q̄ = (1, 0): both unit vectors turned by RoPE, the key j steps less: cos(j ω_0) / √2
    np.testing.assert_allclose(
        offset_terms(_two_d_head(np.eye(2)), j)[:, 0], np.cos(j) / np.sqrt(2), atol=1e-15
    )
    # κ̄ = (0, 1), a quarter turn from q̄: ±sin j / √2, its sign the direction rope() turns
    quarter = offset_terms(_two_d_head([[0.0, 1.0], [-1.0, 0.0]]), j)[:, 0]
    by_rope = [rope(np.array([1.0, 0.0]), 5.0) @ rope(np.array([0.0, 1.0]), 5.0 - offset) for offset in j]
    np.testing.assert_allclose(quarter, np.array(by_rope) / np.sqrt(2), atol=1e-15)
    np.testing.assert_allclose(np.abs(quarter), np.abs(np.sin(j)) / np.sqrt(2), atol=1e-15)


def test_offset_terms_mean_over_tokens_is_the_mean_embedding():
    # tokens (2, 0) and (0, 0): the mean embedding is (1, 0), the terms those of the head above
    head = LookBackHead("rope", np.array([[2.0, 0.0], [0.0, 0.0]]), np.eye(2), np.eye(2))
    np.testing.assert_allclose(
        offset_terms(head, [0, 1, 2])[:, 0], np.cos([0, 1, 2]) / np.sqrt(2), atol=1e-15
    )


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    proportion=st.sampled_from([0.0, 0.25, 0.5, 1.0]),
    base=st.sampled_from([100.0, 10000.0]),
    offset=st.integers(1, 9),
)
def test_offset_terms_sum_to_the_heads_own_scores_averaged_over_token_pairs(seed, proportion, base, offset):
    V, n = 3, 12
    head = init_head("rope", V, 6, d_k=8, seed=seed, base=base, rope_proportion=proportion)
    pairs = np.array([(u, v) for u in range(V) for v in range(V)])  # every (query, key) token pair
    tokens = np.zeros((V * V, n), dtype=int)
    tokens[:, n - 1], tokens[:, n - 1 - offset] = pairs[:, 0], pairs[:, 1]
    mean = head_scores(head, tokens)[:, n - 1, n - 1 - offset].mean()
    assert offset_terms(head, offset).sum() == pytest.approx(mean, rel=1e-10, abs=1e-12)
    # offset 0 (query and key tokens still independent): the unrotated mean score q̄·κ̄/√d_k
    rows = head.embeddings
    at_zero = np.mean([(rows[u] @ head.W_q) @ (rows[v] @ head.W_k) for u, v in pairs]) / np.sqrt(8)
    assert offset_terms(head, 0).sum() == pytest.approx(at_zero, rel=1e-10, abs=1e-12)


def test_offset_terms_of_unrotated_pairs_do_not_change_with_the_offset():
    head = init_head("rope", 5, 8, seed=2, rope_proportion=0.5)  # pairs 2 and 3 unrotated
    terms = offset_terms(head, np.arange(20))
    np.testing.assert_allclose(terms[:, 2:], np.broadcast_to(terms[0, 2:], (20, 2)), rtol=0, atol=1e-15)
    assert np.ptp(terms[:, 0]) > 1e-3  # pair 0 turns
    assert offset_terms(head, np.zeros((3, 2))).shape == (3, 2, 4)  # offsets' shape, then the pairs


@pytest.mark.parametrize(
    ("head", "offsets", "error", "phrase"),
    [
        ("not a head", [1], TypeError, "head must be a LookBackHead"),
        (init_head("sinusoidal", 3, 4), [1], ValueError, "variant 'rope'"),
        (init_head("none", 3, 4), [1], ValueError, "variant 'rope'"),
        (init_head("rope", 3, 4), [1.0, np.nan], ValueError, "offsets"),
        (init_head("rope", 3, 4), ["one"], TypeError, "offsets"),
    ],
)
def test_offset_terms_bad_input(head, offsets, error, phrase):
    with pytest.raises(error, match=phrase):
        offset_terms(head, offsets)
