"""What every "Check yourself" exercise must do, as tests a test module can adopt.

``test_a, test_b, test_c = contract_tests(EXERCISES)`` in a module defines
there three parametrized tests over its exercises: the placeholder is "not
attempted", ``hint()`` and ``solution()`` print, and the printed solution,
run as code, gives an answer the checker accepts.
"""

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import pe_utils
from pe_utils.exercises import NOT_ATTEMPTED, PLACEHOLDER, Exercise


def run_solution(exercise: Exercise, answer_name: str = "answer") -> Any:
    """Execute the printed solution with ``np`` and ``pe_utils`` in scope; return ``answer_name``."""
    namespace: dict[str, Any] = {"np": np, "pe_utils": pe_utils}
    exec(exercise._solution, namespace)
    return namespace[answer_name]


def contract_tests(
    exercises: Sequence[Exercise], answer_names: Sequence[str] | None = None
) -> tuple[Callable, ...]:
    """Return the three contract tests for ``exercises``.

    ``answer_names[j]`` is the name the solution of exercise ``j`` defines
    (``"answer"`` unless given, e.g. a function's name).
    """
    names = list(answer_names or ["answer"] * len(exercises))
    cases = list(zip(exercises, names, strict=True))

    @pytest.mark.parametrize("exercise", exercises)
    def test_placeholder_is_not_attempted(exercise):
        result = exercise.check(PLACEHOLDER)
        assert not result
        assert result.message == NOT_ATTEMPTED

    @pytest.mark.parametrize("exercise", exercises)
    def test_hint_and_solution_print(exercise, capsys):
        exercise.hint()
        exercise.solution()
        out = capsys.readouterr().out
        assert out.startswith("Hint: ")
        assert len(out.splitlines()) >= 2

    @pytest.mark.parametrize(("exercise", "answer_name"), cases)
    def test_printed_solution_is_accepted(exercise, answer_name):
        assert exercise.check(run_solution(exercise, answer_name))

    return test_placeholder_is_not_attempted, test_hint_and_solution_print, test_printed_solution_is_accepted
