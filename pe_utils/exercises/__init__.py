"""Self-checking exercises for the "Check yourself" section of each notebook.

Each notebook ``NN`` has a module ``pe_utils.exercises.nbNN`` whose exercises offer ``check(answer)``,
``hint()`` and ``solution()``::

    from pe_utils.exercises import nb03
    answer = ...            # the learner replaces this
    nb03.wavelength_of_last_pair.check(answer)

``check`` returns a ``CheckResult`` (true when right; its ``repr`` is the message) and never raises,
prints or warns. The verdict is the first rule that applies in the ordered lists of ``_rules.py``
(``VALUE_RULES``, ``FUNCTION_RULES``): read them as the specification. ``_answers.py`` reads an answer
without trusting it. Every numeric question states the form of its answer (``answer_form``): a whole
number (exact or wrong), rounded (``decimals=k`` / ``significant=k``: right within half a unit of that
digit), or the exact value (``rtol``/``atol``). ``tests/test_exercises_generic.py`` checks all of this
for every exercise. Authors: ``solution`` is code ending in an ``answer = …`` line.
"""

from __future__ import annotations

import copy
import io
import warnings
from collections.abc import Callable, Mapping, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._answers import is_function_like, short_repr
from ._rules import CORRECT, FUNCTION_RULES, VALUE_RULES, Answer, Call, Form, Run, Target, as_target, judge

PLACEHOLDER = ...  # what the stored notebook keeps in place of an answer
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


def _spelling(text: str) -> str:
    """``text`` without case, spaces or punctuation: "MoCo v3" → "mocov3"."""
    return "".join(character for character in text.lower() if character.isalnum())


def _quietly(work: Callable[[], Any], catch: tuple = ()) -> Call:
    """``work()`` with what it prints and warns kept out of the output, and ``catch`` errors caught."""
    sink, call = io.StringIO(), Call()
    with warnings.catch_warnings(record=True) as caught, redirect_stdout(sink), redirect_stderr(sink):
        warnings.simplefilter("always")
        try:
            call.value = work()
        except catch as error:
            call.error = error
    call.printed = sink.getvalue()
    call.warned = f"{caught[0].category.__name__}: {short_repr(str(caught[0].message), 80)}" if caught else ""
    return call


class Exercise:
    """An exercise whose answer is a value: a number, an array of numbers, a word or True/False.

    ``expected`` is the reference answer (a zero-argument callable is evaluated once, when first
    needed); ``mistakes`` are typical wrong answers ``(value or callable, explanation)``;
    ``rtol``/``atol`` the tolerance; ``decimals``/``significant`` the digits the question asks for
    (at most one; the question must say it, see ``answer_form``); ``choices`` the words a word
    question allows (by default the expected word and those among the mistakes); ``aliases`` other
    spellings of a choice (compared without case, spaces or punctuation), each mapped to the choice
    or to ``(choice, note)``, the note shown after the verdict.
    """

    def __init__(self, question: str, expected: Any, *, hint: str, solution: str,
                 mistakes: Sequence[tuple[Any, str]] = (), rtol: float = 1e-6, atol: float = 1e-9,
                 decimals: int | None = None, significant: int | None = None,
                 choices: Sequence[str] | None = None, aliases: Mapping[str, Any] | None = None) -> None:
        if decimals is not None and significant is not None:
            raise ValueError("give at most one of decimals and significant")
        for name, value, least in (("decimals", decimals, 0), ("significant", significant, 1)):
            if value is not None and (not isinstance(value, int) or value < least):
                raise ValueError(f"{name} must be an integer ≥ {least}, got {value!r}")
        self.question, self._expected, self._hint, self._solution = question, expected, hint, solution
        self._mistakes, self.rtol, self.atol = tuple(mistakes), rtol, atol
        self.decimals, self.significant = decimals, significant
        self._choices = tuple(choices) if choices is not None else None
        self._aliases = {_spelling(alias): (word, "") if isinstance(word, str) else tuple(word)
                         for alias, word in (aliases or {}).items()}
        self._aliases.update({_spelling(word): (word, "") for word in self._choices or ()} if aliases else {})
        self._resolved: dict[str, Any] = {}

    def _cached(self, key: str, make: Callable[[], Any]) -> Any:
        """The reference and the mistakes, computed once and kept private."""
        if key not in self._resolved:
            self._resolved[key] = make()
        return self._resolved[key]

    @property
    def expected(self) -> Any:
        """The reference answer (a copy: changing it changes nothing in the checker)."""
        return copy.deepcopy(self._cached("expected", lambda: _resolve(self._expected)))

    def _target(self) -> Target:
        return self._cached("target", lambda: as_target(self._cached("expected", lambda: _resolve(self._expected))))

    def _mistake_targets(self) -> list[tuple[Target, str]]:
        return self._cached("mistakes", lambda: [(as_target(_resolve(wrong)), text) for wrong, text in self._mistakes])

    def _rules(self) -> Form:
        target, choices = self._target(), self._choices
        if choices is None:
            words = [wrong for wrong, _ in self._mistake_targets() if isinstance(wrong, str)]
            choices = (target, *words) if isinstance(target, str) and words else ()
        whole = isinstance(target, np.ndarray) and self.decimals is None and self.significant is None \
            and bool(np.all(target == np.round(target)))
        return Form(self.rtol, self.atol, self.decimals, self.significant, tuple(choices), whole)

    @property
    def answer_form(self) -> str | None:
        """The phrase a numeric question (and its notebook text) must contain ("to 4 decimals", "a whole
        number", "the exact value"); ``None`` for a word, a True/False or a function."""
        target = self._target()
        return self._rules().answer_form(target) if isinstance(target, np.ndarray) else None

    def check(self, answer: Any = PLACEHOLDER) -> CheckResult:
        """Compare ``answer`` with the reference and say what is wrong, if anything."""
        if answer is PLACEHOLDER:
            return CheckResult(False, NOT_ATTEMPTED)
        word, note = self._aliases.get(_spelling(answer), (answer, "")) if type(answer) is str else (answer, "")
        try:
            with np.errstate(all="ignore"):
                result = _quietly(lambda: self._check(word)).value
        except Exception as error:  # a bug of the checker itself: say so, never a traceback
            return CheckResult(False, f"The checker could not judge this answer ({type(error).__name__}); compare "
                                      "yours with solution(), and please report this to the course authors.")
        return CheckResult(result.passed, f"{result.message} {note}") if note else result

    def _check(self, answer: Any) -> CheckResult:
        target, mistakes = self._target(), self._mistake_targets()
        sizes = [wrong.size for wrong in (target, *(wrong for wrong, _ in mistakes)) if isinstance(wrong, np.ndarray)]
        return CheckResult(*judge(Answer(answer, target, self._rules(), mistakes, budget=10 * max(sizes, default=1)
                                         + 1000), VALUE_RULES))

    def hint(self) -> None:
        """Print a hint."""
        print(f"Hint: {self._hint}")

    def solution(self) -> None:
        """Print a reference solution."""
        print(self._solution)

    def __repr__(self) -> str:
        return self.question


def _resolve(value: Any) -> Any:
    return value() if callable(value) else value


class FunctionExercise(Exercise):
    """An exercise whose answer is a function, checked on fixed argument tuples ``cases`` against
    ``reference``; each call gets fresh deep copies, and each mistake is a wrong function."""

    def __init__(self, question: str, reference: Callable[..., Any], cases: Sequence[tuple[Any, ...]], *,
                 hint: str, solution: str, mistakes: Sequence[tuple[Callable[..., Any], str]] = (),
                 rtol: float = 1e-6, atol: float = 1e-9) -> None:
        super().__init__(question, None, hint=hint, solution=solution, rtol=rtol, atol=atol)
        self.reference, self.cases, self._function_mistakes = reference, cases, tuple(mistakes)

    @property
    def cases(self) -> tuple[tuple[Any, ...], ...]:
        """The argument tuples (a copy: changing it changes nothing in the checker)."""
        return copy.deepcopy(self._cases)

    @cases.setter
    def cases(self, cases: Sequence[tuple[Any, ...]]) -> None:
        self._cases = copy.deepcopy(tuple(tuple(case) for case in cases))
        self._resolved = {}

    def _results(self, function: Callable[..., Any]) -> list[Target]:
        return [as_target(function(*copy.deepcopy(case))) for case in self._cases]

    def _mistake_results(self) -> list[tuple[list[Target] | None, str]]:
        def results(wrong: Callable[..., Any]) -> list[Target] | None:
            try:
                return self._results(wrong)
            except Exception:  # a typical mistake that cannot run on some case never matches
                return None

        return self._cached("function mistakes", lambda: [(results(w), text) for w, text in self._function_mistakes])

    def _check(self, answer: Any) -> CheckResult:
        calls: list[Call] | None = None
        if is_function_like(answer):
            calls = []
            for case in self._cases:
                with np.errstate(all="warn"):
                    calls.append(_quietly(lambda case=case: answer(*copy.deepcopy(case)), (Exception, SystemExit)))
                if calls[-1].error is not None:
                    break
        targets = self._cached("reference", lambda: self._results(self.reference))
        form = Form(self.rtol, self.atol)
        budget = 10 * max((t.size for t in targets if isinstance(t, np.ndarray)), default=1) + 1000
        results = [Answer(call.value, target, form, subject="its result", budget=budget)
                   for call, target in zip(calls or [], targets)]
        return CheckResult(*judge(Run(answer, self._cases, calls, results, self._mistake_results()), FUNCTION_RULES))


__all__ = ["CORRECT", "NOT_ATTEMPTED", "PLACEHOLDER", "CheckResult", "Exercise", "FunctionExercise"]
