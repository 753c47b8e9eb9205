"""The exercise machinery that every "Check yourself" section relies on."""

import math

import numpy as np

from pe_utils.exercises import NOT_ATTEMPTED, Exercise, FunctionExercise

wavelength = Exercise(
    "Wavelength of pair 0?",
    expected=lambda: 2 * math.pi,
    hint="ω_0 = 1",
    solution="2 * np.pi",
    mistakes=[(360.0, "That is in degrees; the course measures angles in radians.")],
)


def test_placeholder_is_not_attempted():
    result = wavelength.check(...)
    assert not result and repr(result) == NOT_ATTEMPTED


def test_correct_within_tolerance():
    assert wavelength.check(6.2831853)
    assert repr(wavelength.check(2 * math.pi)) == "Correct!"


def test_known_mistake_is_explained():
    result = wavelength.check(360)
    assert not result and "degrees" in result.message


def test_unknown_wrong_answer_says_what_differs():
    assert "hint()" in wavelength.check(7.0).message
    assert "shape" in wavelength.check([1.0, 2.0]).message
    assert "number" in wavelength.check("six").message
    assert "NaN" in wavelength.check(float("nan")).message


def test_hint_and_solution_print(capsys):
    wavelength.hint()
    wavelength.solution()
    out = capsys.readouterr().out
    assert "Hint: ω_0 = 1" in out and "2 * np.pi" in out
    assert repr(wavelength) == "Wavelength of pair 0?"


def test_string_answers_ignore_case_and_spaces():
    word = Exercise("Equivariant or invariant?", "equivariant", hint="h", solution="s")
    assert word.check("  Equivariant ")
    assert not word.check("invariant")


square = FunctionExercise(
    "Write f(x) = x²",
    reference=lambda x: x**2,
    cases=[(np.arange(4.0),), (-1.5,)],
    hint="h",
    solution="lambda x: x ** 2",
    mistakes=[(lambda x: 2 * x, "That doubles x instead of squaring it.")],
)


def test_function_exercise():
    assert "Not attempted" in square.check(...).message
    assert square.check(lambda x: x * x)
    assert "doubles" in square.check(lambda x: 2 * x).message
    assert "Expected a function" in square.check(3).message
    assert "ZeroDivisionError" in square.check(lambda x: 1 / 0).message
    assert "wrong result for arguments" in square.check(lambda x: x**3).message
