"""Self-checking exercises for the "Check yourself" section of each notebook.

Each notebook ``NN`` has a module ``pe_utils.exercises.nbNN`` whose exercise
objects offer ``check(answer)``, ``hint()`` and ``solution()``. ``check``
accepts answers within a tolerance, says "not attempted yet" for the ``...``
placeholder the stored notebook keeps, and explains a recognised mistake.

Usage in a notebook::

    from pe_utils.exercises import nb03
    answer = ...            # the learner replaces this
    nb03.wavelength_of_last_pair.check(answer)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: What the stored notebook keeps in place of an answer.
PLACEHOLDER = ...

NOT_ATTEMPTED = "Not attempted yet: replace ... with your answer and run the cell again."


@dataclass(frozen=True)
class CheckResult:
    """The verdict of ``check``: true when the answer is right; shows its message."""

    passed: bool
    message: str

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return self.message


def _resolve(value: Any) -> Any:
    return value() if callable(value) else value


def _matches(answer: Any, expected: Any, rtol: float, atol: float) -> bool:
    if isinstance(expected, str):
        return isinstance(answer, str) and answer.strip().lower() == expected.strip().lower()
    try:
        answer_array = np.asarray(answer, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    expected_array = np.asarray(expected, dtype=np.float64)
    if answer_array.shape != expected_array.shape:
        return False
    return bool(np.allclose(answer_array, expected_array, rtol=rtol, atol=atol))


def _describe_difference(answer: Any, expected: Any) -> str:
    if isinstance(expected, str):
        return "That is not the expected answer."
    try:
        answer_array = np.asarray(answer, dtype=np.float64)
    except (TypeError, ValueError):
        return f"Expected a number or an array of numbers, got {type(answer).__name__}."
    expected_array = np.asarray(expected, dtype=np.float64)
    if answer_array.shape != expected_array.shape:
        return f"Expected shape {expected_array.shape}, got shape {answer_array.shape}."
    if not np.all(np.isfinite(answer_array)):
        return "Your answer contains NaN or infinity."
    return "The shape is right but some values are not; try hint()."


class Exercise:
    """An exercise whose answer is a value (a number or an array).

    Parameters
    ----------
    question : str
        What is asked, shown by ``repr``.
    expected : value or zero-argument callable
        The reference answer (a callable is evaluated when first needed).
    hint : str
    solution : str
        Code or text that produces the reference answer.
    mistakes : sequence of (value or callable, explanation)
        Typical wrong answers and what each one gets wrong.
    rtol, atol : float
        Tolerance of the comparison.
    """

    def __init__(
        self,
        question: str,
        expected: Any,
        *,
        hint: str,
        solution: str,
        mistakes: Sequence[tuple[Any, str]] = (),
        rtol: float = 1e-6,
        atol: float = 1e-9,
    ) -> None:
        self.question = question
        self._expected = expected
        self._hint = hint
        self._solution = solution
        self._mistakes = tuple(mistakes)
        self.rtol = rtol
        self.atol = atol

    @property
    def expected(self) -> Any:
        """The reference answer."""
        return _resolve(self._expected)

    def check(self, answer: Any) -> CheckResult:
        """Compare ``answer`` with the reference and say what is wrong, if anything."""
        if answer is PLACEHOLDER:
            return CheckResult(False, NOT_ATTEMPTED)
        if _matches(answer, self.expected, self.rtol, self.atol):
            return CheckResult(True, "Correct!")
        for wrong, explanation in self._mistakes:
            if _matches(answer, _resolve(wrong), self.rtol, self.atol):
                return CheckResult(False, f"Not quite. {explanation}")
        return CheckResult(False, f"Not quite. {_describe_difference(answer, self.expected)}")

    def hint(self) -> None:
        """Print a hint."""
        print(f"Hint: {self._hint}")

    def solution(self) -> None:
        """Print a reference solution."""
        print(self._solution)

    def __repr__(self) -> str:
        return self.question


class FunctionExercise(Exercise):
    """An exercise whose answer is a function, checked on fixed test inputs.

    ``reference`` is the correct function; ``cases`` the argument tuples it
    is called with; each mistake is a wrong function and its explanation.
    """

    def __init__(
        self,
        question: str,
        reference: Callable[..., Any],
        cases: Sequence[tuple[Any, ...]],
        *,
        hint: str,
        solution: str,
        mistakes: Sequence[tuple[Callable[..., Any], str]] = (),
        rtol: float = 1e-6,
        atol: float = 1e-9,
    ) -> None:
        super().__init__(question, None, hint=hint, solution=solution, rtol=rtol, atol=atol)
        self.reference = reference
        self.cases = tuple(cases)
        self._function_mistakes = tuple(mistakes)

    def _agrees(self, candidate: Callable[..., Any], target: Callable[..., Any]) -> bool:
        return all(
            _matches(candidate(*case), target(*case), self.rtol, self.atol) for case in self.cases
        )

    def check(self, answer: Any) -> CheckResult:
        """Call ``answer`` on every test case and compare with the reference."""
        if answer is PLACEHOLDER:
            return CheckResult(False, NOT_ATTEMPTED)
        if not callable(answer):
            return CheckResult(False, f"Not quite. Expected a function, got {type(answer).__name__}.")
        try:
            if self._agrees(answer, self.reference):
                return CheckResult(True, "Correct!")
        except Exception as error:  # the learner's code may fail in any way
            return CheckResult(False, f"Your function raised {type(error).__name__}: {error}")
        for wrong, explanation in self._function_mistakes:
            if self._agrees(answer, wrong):
                return CheckResult(False, f"Not quite. {explanation}")
        for case in self.cases:
            if not _matches(answer(*case), self.reference(*case), self.rtol, self.atol):
                got = _describe_difference(answer(*case), self.reference(*case))
                return CheckResult(False, f"Not quite: wrong result for arguments {case!r}. {got}")
        return CheckResult(False, "Not quite.")  # unreachable: some case must differ
