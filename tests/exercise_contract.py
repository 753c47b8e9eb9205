"""Helpers shared by the exercise tests: find every exercise, run a printed solution.

``discover_exercises()`` walks ``pe_utils.exercises`` (every module, found by
``pkgutil``) and returns each ``Exercise`` instance once, named ``nbNN.name``:
a new exercise is covered by the generic tests without a new line of test code.

``test_printed_solution_is_accepted = printed_solution_test(EXERCISES, names)``
in a test module defines one parametrized test: the code that ``solution()``
prints, run in the namespace the notebooks' setup cells give (``np``, ``math``,
``pe_utils`` and every public name of ``pe_utils``), gives an answer the checker
accepts. (What every exercise does is in tests/exercises/test_contract.py and
tests/exercises/test_every_exercise.py.)
"""

import importlib
import math
import pkgutil
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import pe_utils
import pe_utils.exercises as exercises_package
from pe_utils.exercises import Exercise

#: A line of a printed solution that defines the learner's ``answer``.
ANSWER_LINE = re.compile(r"^answer\s*=", re.MULTILINE)


def discover_exercises() -> dict[str, Exercise]:
    """Every ``Exercise`` object of every module under ``pe_utils.exercises``, by ``module.name``."""
    found: dict[str, Exercise] = {}
    seen: set[int] = set()
    prefix = f"{exercises_package.__name__}."
    modules = sorted(info.name for info in pkgutil.walk_packages(exercises_package.__path__, prefix))
    for module_name in modules:
        module = importlib.import_module(module_name)
        for attribute, value in sorted(vars(module).items()):
            if isinstance(value, Exercise) and id(value) not in seen:
                seen.add(id(value))
                found[f"{module_name.rsplit('.', 1)[-1]}.{attribute}"] = value
    return found


def notebook_namespace() -> dict[str, Any]:
    """What a notebook's setup cell provides: ``np``, ``math``, ``pe_utils`` and its public names."""
    namespace: dict[str, Any] = {"np": np, "math": math, "pe_utils": pe_utils}
    namespace.update({name: getattr(pe_utils, name) for name in pe_utils.__all__})
    return namespace


def run_solution(exercise: Exercise, answer_name: str = "answer") -> Any:
    """Execute the printed solution in ``notebook_namespace()``; return ``answer_name``."""
    namespace = notebook_namespace()
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
