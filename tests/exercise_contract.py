"""Run an exercise's printed solution as code and hand the answer it defines to its checker.

``test_printed_solution_is_accepted = printed_solution_test(EXERCISES, names)``
in a test module defines one parametrized test: the code that ``solution()``
prints, run with ``np`` and ``pe_utils`` in scope, gives an answer the checker
accepts. (What every exercise does is in tests/test_exercise_contract.py.)
"""

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import pe_utils
from pe_utils.exercises import Exercise


def run_solution(exercise: Exercise, answer_name: str = "answer") -> Any:
    """Execute the printed solution with ``np`` and ``pe_utils`` in scope; return ``answer_name``."""
    namespace: dict[str, Any] = {"np": np, "pe_utils": pe_utils}
    exec(exercise._solution, namespace)
    return namespace[answer_name]


def printed_solution_test(
    exercises: Sequence[Exercise], answer_names: Sequence[str] | None = None
) -> Callable:
    """Return the test; ``answer_names[j]`` is what the solution of exercise ``j`` defines."""
    names = list(answer_names or ["answer"] * len(exercises))

    @pytest.mark.parametrize(("exercise", "answer_name"), list(zip(exercises, names, strict=True)))
    def test_printed_solution_is_accepted(exercise, answer_name):
        assert exercise.check(run_solution(exercise, answer_name))

    return test_printed_solution_is_accepted
