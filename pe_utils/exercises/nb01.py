"""Exercises of notebook 01, "Attention cannot see order".

Each object offers ``check(answer)``, ``hint()`` and ``solution()``::

    from pe_utils.exercises import nb01
    answer = ...
    nb01.reverse_order.check(answer)
"""

from __future__ import annotations

import numpy as np

from ..attention import fixed_weights, permutation_matrix, self_attention, token_embeddings
from . import CheckResult, Exercise, FunctionExercise
from ._reading import Refusal, as_typed, read_real

__all__ = [
    "causal_unchanged_positions",
    "compose_orders",
    "outputs_follow_words",
    "pooled_output",
    "reverse_order",
    "sum_over_tokens",
]


class _OrderExercise(Exercise):
    """An order array of 5 rows: one that repeats a row 0 … 4 is named as no permutation."""

    def _check(self, answer: object) -> CheckResult:
        read = read_real(answer, budget=10_000)
        if isinstance(read, Refusal) or read.shape != (5,) or not np.all(np.isfinite(read)):
            return super()._check(answer)
        if np.all((read >= 0) & (read <= 4) & (read == np.round(read))):
            given = [int(r) for r in read]
            repeated = sorted({r for r in given if given.count(r) > 1})
            if repeated:
                return CheckResult(
                    False,
                    f"Not quite: that is not a permutation, since row {repeated[0]} is listed "
                    f"{given.count(repeated[0])} times. An order array lists each row 0 … 4 "
                    "exactly once.",
                )
        return super()._check(answer)


reverse_order = _OrderExercise(
    "A matrix X has 5 rows. Give the order array for which permutation_matrix(order) @ X "
    "lists the rows of X in reverse, last row first (whole numbers, as a list or an array).",
    np.array([4, 3, 2, 1, 0]),
    hint="Row r of P X is row order[r] of X. Which row of X must come first? Rows are numbered from 0.",
    solution=(
        "answer = np.array([4, 3, 2, 1, 0])   # or np.arange(5)[::-1]\n"
        "# New row 0 is old row 4, new row 1 is old row 3, and so on."
    ),
    mistakes=[
        (
            np.array([5, 4, 3, 2, 1]),
            "Rows are numbered from 0, so the last row of a 5-row X is row 4, not row 5.",
        ),
        (
            np.array([0, 1, 2, 3, 4]),
            "That is the identity order: every row stays where it is.",
        ),
        (
            np.array([4, 3, 2, 1]),
            "That order has only 4 entries; X has 5 rows, so order needs 5 indices (0 … 4).",
        ),
    ],
)


def _compose_reference(a: object, b: object) -> np.ndarray:
    return np.asarray(b)[np.asarray(a)]


# Pairs (a, b) whose matrices do not commute, so b[a] and a[b] differ. NumPy integer arrays, as the
# notebook's orders are, so that the natural b[a] works.
_COMPOSE_CASES = [
    (np.array(a), np.array(b))
    for a, b in [
        ([1, 2, 0], [1, 0, 2]),
        ([2, 0, 3, 1], [1, 0, 3, 2]),
        ([4, 0, 3, 1, 2], [0, 2, 1, 4, 3]),
        ([3, 2, 1, 0], [1, 2, 3, 0]),
        ([0, 1, 2, 3, 4], [4, 0, 3, 1, 2]),
    ]
]

compose_orders = FunctionExercise(
    "Permuting by b and then by a is one permutation: permutation_matrix(a) @ permutation_matrix(b) "
    "equals permutation_matrix(c). Write a function compose(a, b) that returns the order array c "
    "(a and b are NumPy integer arrays, like the orders in the notebook).",
    _compose_reference,
    cases=_COMPOSE_CASES,
    hint=(
        "Row r of P_a (P_b X) is row a[r] of P_b X, and row j of P_b X is row b[j] of X. "
        "Put j = a[r]. Try it on a small example and compare the matrices."
    ),
    solution=(
        "def compose(a, b):\n"
        "    return np.asarray(b)[np.asarray(a)]   # c[r] = b[a[r]]\n"
        "\n"
        "\n"
        "answer = compose\n"
        "# (P_a P_b X)_r = (P_b X)_{a[r]} = X_{b[a[r]]}: index b with a, not a with b."
    ),
    mistakes=[
        (
            lambda a, b: np.asarray(a)[np.asarray(b)],
            "That is a[b], the order of P_b P_a: the two permutations in the other order. "
            "Permutation matrices do not commute in general. Row r of P_a P_b X is row b[a[r]] of X.",
        ),
        (
            lambda a, b: np.asarray(a),
            "That is a alone: it ignores P_b, which is applied to X first.",
        ),
        (
            lambda a, b: np.asarray(b),
            "That is b alone: it ignores P_a, which reorders the rows of P_b X.",
        ),
        (
            lambda a, b: permutation_matrix(a) @ permutation_matrix(b),
            "That is the matrix P_a P_b itself. The question asks for its order array c: "
            "one index per row, the column where that row has its 1.",
        ),
    ],
)

_SENTENCE_A = ["the", "developer", "deployed", "the", "agent"]
#: Sentence c, "the agent the developer deployed": the words of sentence a at places 3, 4, 0, 1, 2.
_SENTENCE_C_ORDER = [3, 4, 0, 1, 2]


def _sentence_outputs() -> tuple[np.ndarray, np.ndarray]:
    """The attention outputs of sentences a and c, with the notebook's d = 8 and fixed weights."""
    W_q, W_k, W_v = fixed_weights(8)
    sentence_c = [_SENTENCE_A[r] for r in _SENTENCE_C_ORDER]
    Y_a = self_attention(token_embeddings(_SENTENCE_A, 8), W_q, W_k, W_v)
    Y_c = self_attention(token_embeddings(sentence_c, 8), W_q, W_k, W_v)
    return Y_a, Y_c


def _first_equal_row(Y_a: np.ndarray, s: int) -> int:
    """The first row of Y_a equal to row s (rows 0 and 3, the two copies of "the", are equal)."""
    return next(t for t in range(len(Y_a)) if np.allclose(Y_a[t], Y_a[s], rtol=0, atol=1e-12))


def _canonical_rows(rows: list[int]) -> np.ndarray:
    """Each row index replaced by the first row of Y_a with the same output."""
    Y_a, _ = _sentence_outputs()
    return np.array([_first_equal_row(Y_a, s) for s in rows], dtype=np.int64)


def _outputs_follow_words_reference() -> np.ndarray:
    # Computed, not typed: for each row r of Y_c, the first row of Y_a that equals it.
    Y_a, Y_c = _sentence_outputs()
    found = [
        next(s for s in range(len(Y_a)) if np.allclose(Y_c[r], Y_a[s], rtol=0, atol=1e-12))
        for r in range(len(Y_c))
    ]
    return np.array(found, dtype=np.int64)


def _inverse_answers() -> list[np.ndarray]:
    """Where each row of Y_a went in Y_c: the reverse question, every variant of it.

    Rows 0 and 2 of Y_c (the two copies of "the") are equal, so either may stand for them.
    """
    Y_a, Y_c = _sentence_outputs()
    choices = [
        [s for s in range(len(Y_c)) if np.allclose(Y_c[s], Y_a[t], rtol=0, atol=1e-12)]
        for t in range(len(Y_a))
    ]
    variants = [[]]
    for options in choices:
        variants = [v + [s] for v in variants for s in options]
    return [np.array(v, dtype=np.float64) for v in variants]


class _RowsExercise(Exercise):
    """An answer that is one row index of Y_a per row of Y_c.

    Rows 0 and 3 of Y_a are equal (the two copies of "the"), so either index is right wherever
    one of them is: each entry that is a row 0 … 4 is read as the first row of Y_a with the same
    output, then judged as usual. An entry that is no row is named, and the other entries are
    judged by the same rule. The reverse question (where each row of Y_a went) gets its own
    message.
    """

    def _check(self, answer: object) -> CheckResult:
        n = len(_SENTENCE_A)
        read = read_real(answer, budget=10_000)
        if isinstance(read, Refusal) or read.shape != (n,):
            return super()._check(answer)
        whole = np.isfinite(read) & (read == np.round(np.nan_to_num(read)))
        valid = whole & (read >= 0) & (read < n)
        if not valid.all():
            shifted = read - 1
            if whole.all() and np.all((shifted >= 0) & (shifted < n)):
                canonical = _canonical_rows([int(s) for s in shifted])
                if np.array_equal(canonical, _outputs_follow_words_reference()):
                    return CheckResult(
                        False,
                        "Not quite. Rows are numbered from 0: the first word of sentence a is "
                        "row 0, the last is row 4.",
                    )
            bad = [r for r in range(n) if not valid[r]]
            named = "; ".join(
                f"entry {r}: {as_typed(float(read[r]), short=True)} is not a row 0 … {n - 1}" for r in bad
            )
            reference = _outputs_follow_words_reference()
            wrong = [r for r in range(n) if valid[r] and _canonical_rows([int(read[r])])[0] != reference[r]]
            if not wrong:
                rest = "The other entries are right."
            else:
                rest = "Of the other entries, " + ", ".join(map(str, wrong)) + " differ too."
            return CheckResult(
                False,
                f"Not quite: {named} (rows are whole numbers, numbered from 0). {rest}",
            )
        if any(np.array_equal(read, inverse) for inverse in _inverse_answers()):
            return CheckResult(
                False,
                "Not quite. That answers the reverse question: for each row of Y_a, where it went "
                "in Y_c (the inverse order, np.argsort). The question asks, for each row r of "
                "Y_c, which row of Y_a it equals.",
            )
        canonical = _canonical_rows([int(s) for s in read])
        if np.array_equal(canonical, read):
            return super()._check(answer)
        return super()._check(canonical)


outputs_follow_words = _RowsExercise(
    "Sentence c, 'the agent the developer deployed', has the words of sentence a, 'the developer "
    "deployed the agent', in another order. Y_a and Y_c are their self-attention outputs (the same "
    "weights). Without running anything: for each row r = 0 … 4 of Y_c, which row of Y_a is equal "
    "to it? Give one row index per r, as whole numbers in a list.",
    _outputs_follow_words_reference,
    hint=(
        "Each output row belongs to its word and moves with it. Which word stands at position r of "
        "sentence c, and where does that word stand in sentence a? Rows are numbered from 0."
    ),
    solution=(
        "answer = [3, 4, 0, 1, 2]   # the agent the developer deployed\n"
        "# Row r of Y_c is the output of the word at place r of c, and that word's output in a.\n"
        "# Rows 0 and 3 of Y_a (the two copies of 'the') are equal: [0, 4, 3, 1, 2] is right too.\n"
        "# Check: Y_c equals Y_a[answer], row by row."
    ),
    mistakes=[
        (
            lambda: _canonical_rows([0, 1, 2, 3, 4]),
            "Outputs do not stay at their places: each one moves with its word. Row r of Y_c is "
            "the output of the word that stands at position r of sentence c.",
        ),
        (
            np.array([4, 5, 1, 2, 3]),
            "Rows are numbered from 0: the first word of sentence a is row 0, the last is row 4.",
        ),
    ],
)

_POOLED_TOKENS = ["a", "b", "c", "d", "e"]
_POOLED_ORDER = [4, 2, 0, 3, 1]


def _pooled_reference() -> np.ndarray:
    X = token_embeddings(_POOLED_TOKENS, 6)
    W_q, W_k, W_v = fixed_weights(6, d_v=3)
    return self_attention(X, W_q, W_k, W_v).mean(axis=0)


def _pooled_summed() -> np.ndarray:
    return _pooled_reference() * len(_POOLED_TOKENS)


def _pooled_causal() -> np.ndarray:
    X = permutation_matrix(_POOLED_ORDER) @ token_embeddings(_POOLED_TOKENS, 6)
    W_q, W_k, W_v = fixed_weights(6, d_v=3)
    return self_attention(X, W_q, W_k, W_v, causal=True).mean(axis=0)


pooled_output = Exercise(
    "Let X = token_embeddings(['a', 'b', 'c', 'd', 'e'], 6), "
    "W_q, W_k, W_v = fixed_weights(6, d_v=3) and P = permutation_matrix([4, 2, 0, 3, 1]). "
    "What is the mean over tokens of self_attention(P @ X, W_q, W_k, W_v)? "
    "(An array of 3 numbers; give each to 4 decimals, as NumPy prints them here.)",
    _pooled_reference,
    decimals=4,
    hint=(
        "Compute the output (5 rows, 3 columns) and average over the tokens, i.e. over the rows: "
        "axis=0. Then compare with the same mean for X itself."
    ),
    solution=(
        "from pe_utils import fixed_weights, permutation_matrix, self_attention, token_embeddings\n"
        "X = token_embeddings(['a', 'b', 'c', 'd', 'e'], 6)\n"
        "W_q, W_k, W_v = fixed_weights(6, d_v=3)\n"
        "P = permutation_matrix([4, 2, 0, 3, 1])\n"
        "Y_perm = self_attention(P @ X, W_q, W_k, W_v)\n"
        "answer = Y_perm.mean(axis=0)\n"
        "# It equals self_attention(X, W_q, W_k, W_v).mean(axis=0): the rows of Y_perm are the rows\n"
        "# of the unpermuted output in another order, and a mean ignores order. The mean is invariant."
    ),
    mistakes=[
        (
            _pooled_summed,
            "That is the sum over the 5 tokens; the mean divides it by 5.",
        ),
        (
            _pooled_causal,
            "That is the output with a causal mask. This exercise uses plain self-attention "
            "(causal=False, the default); with a mask the pooled output does depend on the order.",
        ),
    ],
)


sum_over_tokens = Exercise(
    "Is the function f(X) = X.sum(axis=0) (the sum over tokens) permutation 'equivariant' or "
    "'invariant'? Answer with one of these two words.",
    "invariant",
    hint="Compare f(P X) with f(X) and with P f(X). What shape is f(X)? Can P even act on it?",
    solution=(
        "answer = 'invariant'\n"
        "# f(PX) = 1ᵀ P X = 1ᵀ X = f(X) because every column of P holds exactly one 1.\n"
        "# f(X) is one row, so 'P f(X)' does not even make sense: the output does not move,\n"
        "# it stays the same."
    ),
    mistakes=[
        (
            "equivariant",
            "Equivariant means f(PX) = P f(X): the outputs move with the inputs. Here f(X) is a "
            "single row that P cannot reorder, and f(PX) is exactly f(X).",
        ),
        (
            "neither",
            "Try it: X.sum(axis=0) and (P @ X).sum(axis=0) are equal for every permutation P.",
        ),
    ],
    choices=("equivariant", "invariant"),
    aliases={"permutation invariant": "invariant", "permutation equivariant": "equivariant"},
)

_CAUSAL_ORDER = [0, 2, 1, 3, 4]


def _causal_unchanged_reference() -> np.ndarray:
    # Computed, not typed: the positions whose causal output is the same after reordering.
    X = token_embeddings(["a", "b", "c", "d", "e"], 6)
    W_q, W_k, W_v = fixed_weights(6)
    before = self_attention(X, W_q, W_k, W_v, causal=True)
    after = self_attention(permutation_matrix(_CAUSAL_ORDER) @ X, W_q, W_k, W_v, causal=True)
    return np.flatnonzero(np.isclose(before, after, atol=1e-12).all(axis=1))


def _why_position(r: int) -> str:
    # The reason output r keeps or changes, from the rule of section 8: it stays the same exactly
    # when the token at r is the same and positions 0 … r hold the same tokens.
    if _CAUSAL_ORDER[r] != r:
        return f"position {r} now holds another token (the one from position {_CAUSAL_ORDER[r]})"
    if r == 0:
        return "position 0 keeps its token, and with the mask it sees only itself"
    return (
        f"position {r} keeps its token, and positions 0 … {r} hold the same tokens as before, "
        "in another order"
    )


def _other_position_lists(covered: list[tuple[np.ndarray, str]]) -> list[tuple[np.ndarray, str]]:
    """Every other increasing list of positions 0 … 4 not in ``covered``, with what it gets wrong."""
    seen = {tuple(int(r) for r in wrong) for wrong, _ in covered}
    right = set(_causal_unchanged_reference().tolist())
    mistakes = []
    for mask in range(2**5):
        chosen = {r for r in range(5) if mask >> r & 1}
        if chosen == right or tuple(sorted(chosen)) in seen:
            continue
        parts = []
        missing, extra = sorted(right - chosen), sorted(chosen - right)
        if missing:
            parts.append("Unchanged too: " + "; ".join(_why_position(r) for r in missing) + ".")
        if extra:
            parts.append(
                "Changed: " + "; ".join(f"{_why_position(r)}, so its output changes" for r in extra) + "."
            )
        mistakes.append((np.array(sorted(chosen), dtype=np.int64), " ".join(parts)))
    return mistakes


_CAUSAL_MISTAKES: list[tuple[np.ndarray, str]] = [
    (
        np.array([3, 4]),
        "Position 0 keeps its token, and with a mask it sees only itself: its output does not change either.",
    ),
    (
        np.array([0, 1, 2, 3, 4]),
        "Without a mask every output would only move with its token. With the mask, "
        "positions 1 and 2 now hold other tokens that see other prefixes, so their "
        "outputs change.",
    ),
    (
        np.array([1, 2]),
        "Those are the positions whose tokens moved. The question asks where the output stays the same.",
    ),
    (
        np.array([0]),
        "Positions 3 and 4 keep their tokens, and the tokens at 0 … r are the same ones in "
        "another order: a sum over j ≤ r does not depend on that order.",
    ),
    (
        np.array([0, 4]),
        "Position 3 keeps its token too, and positions 0 … 3 hold the same tokens as before, "
        "only in another order.",
    ),
    (
        np.array([0, 3]),
        "Position 4 keeps its token too, and it sees all five tokens, as before.",
    ),
    (
        np.array([2, 3, 4]),
        "That is the answer for order [1, 0, 2, 3, 4] in section 8. Here positions 1 and 2 swap, "
        "so look again at positions 0, 1 and 2.",
    ),
    *(
        (np.array(shuffled), "Right positions, but give them in increasing order.")
        for shuffled in ([0, 4, 3], [3, 0, 4], [3, 4, 0], [4, 0, 3], [4, 3, 0])
    ),
]


class _PositionsExercise(Exercise):
    """An answer that is a set of positions 0 … n − 1, given in increasing order.

    A list of positions is judged as a set, not entry by entry: a position out of range, a
    repeat or the wrong order is named as such, and a wrong set is told which positions are
    missing or extra and why. No message gives away how many positions the answer has.
    """

    def __init__(self, *args: object, n_positions: int, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.n_positions = n_positions

    def _is_mask(self, answer: object, read: object) -> bool:
        """True for one True/False (or 1/0) entry per position: a mask, not positions."""
        n = self.n_positions
        if isinstance(answer, np.ndarray) and answer.dtype == np.bool_:
            return answer.shape == (n,)
        if isinstance(answer, (list, tuple)) and len(answer) == n:
            if all(isinstance(x, (bool, np.bool_)) for x in answer):
                return True
        # A list of n entries, all 0 or 1, repeats a position anyway: read it as a mask.
        return isinstance(read, np.ndarray) and read.shape == (n,) and bool(np.all((read == 0) | (read == 1)))

    def _check(self, answer: object) -> CheckResult:
        read = read_real(answer, budget=10_000)
        if self._is_mask(answer, read):
            return CheckResult(
                False,
                f"Not quite: that looks like a mask, one True/False (or 1/0) per position 0 … "
                f"{self.n_positions - 1}. The question asks for the positions themselves: "
                "np.flatnonzero(mask) turns a mask into them.",
            )
        if isinstance(read, Refusal):
            advice = f": {read.advice}" if read.advice else ""
            where = f" (item {read.where})" if read.where else ""
            return CheckResult(False, f"Expected a list of positions, got {read.description}{where}{advice}.")
        if read.ndim != 1:  # an empty list is an answer ("no position"), judged below
            shape = "a single number" if read.ndim == 0 else f"an array of shape {read.shape}"
            return CheckResult(False, f"Expected a flat list of positions such as [1, 2], got {shape}.")
        if not np.all(np.isfinite(read)) or np.any(read != np.round(read)):
            return CheckResult(False, "Not quite: positions are whole numbers (0, 1, 2, …).")
        given = [int(r) for r in read]
        outside = sorted({r for r in given if not 0 <= r < self.n_positions})
        if outside:
            return CheckResult(
                False,
                f"Not quite: the positions are 0 … {self.n_positions - 1} (numbered from 0); "
                f"{', '.join(map(str, outside))} is not one of them.",
            )
        repeated = sorted({r for r in given if given.count(r) > 1})
        if repeated:
            return CheckResult(False, f"Not quite: position {repeated[0]} is listed more than once.")
        ordered = np.array(sorted(given))
        if not np.array_equal(ordered, read):
            order_note = " Also, give them in increasing order."
            result = super()._check(ordered)
            if result:
                return CheckResult(False, "Right positions, but give them in increasing order.")
            return CheckResult(False, result.message + order_note)
        return super()._check(answer)


causal_unchanged_positions = _PositionsExercise(
    "Five different tokens pass through one causal self-attention layer, then the same tokens "
    "reordered by order = [0, 2, 1, 3, 4] (the tokens at positions 1 and 2 swap). At which "
    "positions is the output the same as before? Give the positions (whole numbers) in increasing order.",
    _causal_unchanged_reference,
    hint=(
        "Output r depends on the token at r and on the multiset of tokens at 0 … r. For each r, "
        "ask: is the token at r the same, and are the tokens at 0 … r the same ones?"
    ),
    solution=(
        "answer = np.array([0, 3, 4])\n"
        "# r = 0: same token, it sees only itself. r = 1, 2: a different token stands there.\n"
        "# r = 3, 4: same token, and 0 … r hold the same tokens, only in another order.\n"
        "# Check: compare self_attention(X, …, causal=True) with the output for P @ X, row by row."
    ),
    mistakes=[*_CAUSAL_MISTAKES, *_other_position_lists(_CAUSAL_MISTAKES)],
    n_positions=5,
)
