"""What every "Check yourself" exercise of every notebook does, checked once for all.

More of what every exercise must do (any answer handled, the printed
solution accepted, digits, copies) is in tests/exercises/test_every_exercise.py.
Each notebook's own test module (tests/exercises/test_nbNN.py) then tests
what is particular to its exercises: reference answers computed
independently, and the explanation of each typical mistake.
"""

import pkgutil
import re

import pytest

import pe_utils.exercises as exercises_package
from pe_utils.exercises import NOT_ATTEMPTED, PLACEHOLDER
from tests.exercise_contract import discover_exercises
from tools.paths import course_notebooks

NOTEBOOKS = course_notebooks()
MODULES = {info.name for info in pkgutil.iter_modules(exercises_package.__path__)}
MODULES = {name for name in MODULES if re.fullmatch(r"nb\d\d", name)}
EXERCISES = discover_exercises()


@pytest.mark.parametrize("path", NOTEBOOKS[1:], ids=[path.name for path in NOTEBOOKS[1:]])
def test_every_notebook_has_at_least_two_exercises(path):
    name = f"nb{path.name[:2]}"
    assert name in MODULES, f"pe_utils/exercises/{name}.py is missing"
    assert sum(key.startswith(f"{name}.") for key in EXERCISES) >= 2


@pytest.mark.parametrize("exercise", EXERCISES.values(), ids=EXERCISES.keys())
def test_placeholder_is_not_attempted(exercise):
    result = exercise.check(PLACEHOLDER)
    assert not result
    assert result.message == NOT_ATTEMPTED


@pytest.mark.parametrize("exercise", EXERCISES.values(), ids=EXERCISES.keys())
def test_question_hint_and_solution_print(exercise, capsys):
    assert repr(exercise).strip()
    exercise.hint()
    exercise.solution()
    out = capsys.readouterr().out
    assert out.startswith("Hint: ")
    assert len(out.splitlines()) >= 2
