"""Each notebook's text of an exercise states the form of the answer its checker accepts.

The checker of a numeric exercise accepts a whole number exactly, a value rounded as asked
(``decimals=k`` / ``significant=k``), or an exact short decimal (``answer_form``). A learner
reads the notebook, not ``repr(exercise)``: the markdown cell that asks the question must say
the same thing, or a right answer can be refused for digits the learner was never asked for.
"""

import re

import nbformat
import pytest

from pe_utils.exercises import FunctionExercise
from tests.exercise_contract import discover_exercises
from tests.exercises.test_every_exercise import form_words
from tools.paths import course_notebooks

NOTEBOOKS = course_notebooks()
EXERCISES = discover_exercises()
CHECK_CALL = re.compile(r"\b(nb\d\d)\.(\w+)\.check\(")


#: A code line that shows an exercise's question: ``print(nb06.pe_norm)`` or a bare ``nb00.name``.
SHOWS_QUESTION = re.compile(r"^(?:print\((nb\d\d)\.(\w+)\)|(nb\d\d)\.(\w+))\s*(?:#.*)?$", re.MULTILINE)


def _asked_in_notebooks() -> dict[str, str]:
    """``nbNN.name`` → what the learner reads: the markdown cell before its check, and the question
    itself wherever a code cell shows it (``print(nbNN.name)``, or ``nbNN.name`` alone on a line)."""
    asked: dict[str, str] = {}
    for path in NOTEBOOKS:
        question = ""
        shown: set[str] = set()
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown" and "teacher-note" not in cell.metadata.get("tags", []):
                question = cell.source
            elif cell.cell_type == "code":
                for match in SHOWS_QUESTION.finditer(cell.source):
                    module, name = (match.group(1), match.group(2)) if match.group(1) else match.group(3, 4)
                    shown.add(f"{module}.{name}")
                for module, name in CHECK_CALL.findall(cell.source):
                    asked.setdefault(f"{module}.{name}", question)
        for key in shown & set(EXERCISES):
            asked[key] = asked.get(key, "") + "\n" + EXERCISES[key].question
    return asked


ASKED = _asked_in_notebooks()
NUMERIC = {
    name: exercise
    for name, exercise in EXERCISES.items()
    if not isinstance(exercise, FunctionExercise) and exercise.answer_form is not None
}


def test_every_exercise_is_asked_in_its_notebook():
    assert set(EXERCISES) <= set(ASKED), f"never checked in a notebook: {sorted(set(EXERCISES) - set(ASKED))}"


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_the_notebook_states_the_form_of_the_answer(name):
    words = form_words(NUMERIC[name])
    text = " ".join(ASKED.get(name, "").split())
    assert any(word in text for word in words), (
        f"{name}: the notebook's question must say {' or '.join(map(repr, words))}; it reads: {text[:300]}"
    )
