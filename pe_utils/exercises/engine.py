"""The exercise engine: how an answer is judged (``Exercise``, ``FunctionExercise``).

``check`` returns a ``CheckResult`` (true when right; its ``repr`` is the message) and never raises,
prints or warns; ``_reading.py`` reads the answer without trusting it. A numeric question states its
``answer_form``: a whole number (exact or wrong), rounded (``decimals``/``significant``: right within
half a unit of that digit) or the exact value. A value gets the message of the first rule of
``VALUE_RULES`` that applies:

1. a float16/float32 too coarse for the digits asked for (right as it prints but not as it holds, or
   within two of its steps of the answer);
2. right;
3. a typical mistake;
4. not the kind of answer asked for (text, None, several numbers for one, …);
5. close: right to the digits given; cut off, not rounded; more digits than asked for, off by more
   than half a unit; the last digit asked for off by one;
6. a typical mistake, to the digits given;
7. ``DIFFERENCES``: a wrong word or True/False, a decimal comma, a trailing comma, brackets, a wrong
   shape, NaN, nearly a whole number, a wrong number, wrong entries.

A function gets the first of ``FUNCTION_RULES``: not a function; it raised; it returned what was not
asked for; right; a typical mistake; float16/float32 results; a wrong result (said by ``DIFFERENCES``).
Order matters: a rule may assume that no rule before it applied.
"""

from __future__ import annotations

import copy
import decimal
import io
import warnings
from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from functools import cached_property
from types import SimpleNamespace
from typing import Any

import numpy as np

from ._reading import Refusal, as_typed, describe, normalise, read_as, short_repr

PLACEHOLDER = ...  # what the stored notebook keeps in place of an answer
NOT_ATTEMPTED = "Not attempted yet: replace ... with your answer and run the cell again."
CORRECT = "Correct!"
CHECKER_BUG = "The checker could not judge this answer ({}); compare with solution() and tell the authors."
Target = str | bool | np.ndarray  # what an answer is compared with: a word, True/False or a float64 array


@dataclass(frozen=True)
class CheckResult:
    """The verdict of ``check``: true when the answer is right; shows its message."""

    passed: bool
    message: str

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return self.message


class Answer:
    """An answer (``given``) to ``question``, read as the kind of ``target`` (``read``: at most 10 times as
    many numbers as ``target``, plus 1000): what the rules test, and the parts of their messages."""

    def __init__(self, given: Any, target: Target, question: Exercise, mistakes=(), subject="your answer"):
        self.given, self.target, self.question, self.mistakes = given, target, question, mistakes
        self.read, self.subject = read_as(given, target, 10 * np.size(target) + 1000), subject
        self.answer_form, self.whole = question.answer_form, question.answer_form == "a whole number"
        self.word, self.boolean = isinstance(target, str), isinstance(target, bool)
        self.refused = isinstance(self.read, Refusal)
        self.scalar = isinstance(target, np.ndarray) and not target.ndim
        self.right_shape = isinstance(self.read, np.ndarray) and self.read.shape == getattr(
            target, "shape", 0
        )
        low = isinstance(given, np.generic | np.ndarray) and given.dtype.kind == "f" and given.itemsize < 8
        self.stored = np.asarray(given, dtype=np.float64) if low else None  # what a float16/32 holds

    def against(self, target: Target) -> Answer:
        """The same answer, judged against another target (a typical mistake's value)."""
        return Answer(self.given, target, self.question)

    def mistake(self, test: Callable[[Answer], bool]) -> str | None:
        """The explanation of the first typical mistake that ``test`` says the answer is."""
        return next((text for wrong, text in self.mistakes if test(self.against(wrong))), None)

    def matches(self) -> bool:
        """The same word, the same True/False, or numbers equal within the tolerance."""
        if self.word:
            return isinstance(self.read, str) and normalise(self.read) == normalise(self.target)
        return self.read is self.target if self.boolean else self.right_shape and self.close().all()

    def close(self) -> np.ndarray:
        rtol, atol = (0.0, 1e-9) if self.whole else (self.question.rtol, self.question.atol)
        return np.isclose(self.read, self.target, rtol=rtol, atol=atol)

    def unit(self) -> np.ndarray:
        """One unit of the last digit asked for, per entry (0 if no digits are asked for)."""
        decimals, significant, target = self.question.decimals, self.question.significant, self.target
        if significant is None:
            return np.full(target.shape, 0.0 if decimals is None else 10.0**-decimals)
        magnitude = np.floor(np.log10(np.where(target == 0, 1.0, np.abs(target))))
        return np.where(target == 0, 0.0, 10.0 ** (magnitude - significant + 1))

    def off(self, units: float = 0.5, unit: np.ndarray | None = None) -> np.ndarray:
        """The entries neither close nor within ``units`` units of the last digit asked for (or ``unit``)."""
        unit = self.unit() if unit is None else unit
        return ~(self.close() | (np.abs(self.read - self.target) <= units * unit * (1 + 1e-9)))

    def within(self, units: float = 0.5) -> bool:
        return self.right_shape and np.isfinite(self.read).all() and not self.off(units).any()

    def passes(self) -> bool:
        """Right: equal within the tolerance, or within half a unit of the last digit asked for."""
        return self.matches() or self.within()

    def held_too_few_digits(self) -> bool:
        """A float16/float32 too short for the digits asked for: right as it prints but not as it holds, or
        wrong but within two of its dtype's steps of the answer (too coarse to tell a slip)."""
        if self.stored is None or not self.right_shape:
            return False
        if self.passes():
            return not Answer(self.stored, self.target, self.question).passes()
        step = np.abs(np.spacing(self.target.astype(self.given.dtype))).astype(np.float64)
        return bool(np.all(np.abs(self.stored - self.target) <= 2 * step))

    def places(self) -> np.ndarray:
        """The digits and the decimal places of each entry as written (1200: 2 digits, -2 places)."""
        written = [decimal.Decimal(repr(float(value))).normalize().as_tuple() for value in self.read.flat]
        return np.array([(len(one.digits), -int(one.exponent)) for one in written]).reshape(-1, 2).T

    def digits_close(self) -> bool:
        """Right to the digits it shows, at least two (NumPy prints an array's entries with common
        decimals); a whole number given for a whole number is exact or wrong (1000 is not 1024)."""
        if not self.right_shape or not self.read.size or not np.isfinite(self.read).all():
            return False
        digits, places = self.places()
        if max(digits.max(), places.max()) < 2 or (places.max() <= 0 and np.all(self.target % 1 == 0)):
            return False  # a single digit (6, 0.2) is too few to judge; 1000 is not 1024 "to 1 digit"
        unit = 10.0 ** -(np.maximum(places, places.max()) if places.max() > 0 else places)
        return not self.off(0.5, unit.reshape(self.read.shape)).any()

    def more_decimals(self) -> bool:
        """An entry that is off, given with more decimals than its last digit asked for has (0.22146 for
        4 decimals): not rounded, so rounding is not what went wrong."""
        asked = -np.floor(np.log10(np.where(self.unit() > 0, self.unit(), 1.0)))
        return bool((self.places()[1] > asked.ravel())[self.off().ravel()].any())

    def cut_off(self) -> bool:
        step = np.where(self.unit() > 0, self.unit(), 1.0)
        return bool(np.allclose(self.read, np.trunc(self.target / step) * step, rtol=1e-12, atol=0.0))

    @property
    def off_entries(self) -> str:
        """The entries off by more than half a unit: "", " in every entry", " in entry (1,)", …"""
        off = self.off()
        if self.scalar or off.all():
            return "" if self.scalar else " in every entry"
        where = [str(tuple(int(i) for i in index)) for index in np.argwhere(off)]
        return f" in entr{'y' if len(where) == 1 else 'ies'} " + ", ".join(where[:4])

    @property
    def expected(self) -> str:
        """What is asked for: "a number", "a list or array of 4 numbers (shape (4,))", "a word", …"""
        target, choices = self.target, self.question.choices
        if self.word:
            return f"{f'one of the words {_words(choices)}' if choices else 'a word'}, as text in quotes"
        if self.boolean or self.scalar:
            return "True or False" if self.boolean else "a number"
        if target.ndim == 1:
            return f"a list or array of {target.size} number{'s' * (target.size != 1)} (shape {target.shape})"
        return f"an array of shape {target.shape}"

    @property
    def got(self) -> str:
        """ "Expected shape (4,), got a list of shape (3,)", "Expected a single number, got …" """
        given, shape = self.given, self.read.shape
        kind = "an array" if isinstance(given, np.ndarray) else f"a {type(given).__name__}"
        asked = "a single number" if self.scalar else f"shape {self.target.shape}"
        return f"Expected {asked}, got {f'{kind} of shape {shape}' if shape else 'a single number'}"

    @property
    def shown(self) -> str:
        return short_repr(self.read) if self.word else as_typed(float(self.read))

    @property
    def refusal(self) -> str:
        """What was given instead of what was asked for, and where inside a list (and the list, if one
        number was asked for); what to do instead."""
        what, advice, where = self.read
        if self.scalar and where:
            return f"Expected a single number, got {describe(self.given)[0]} (item {where} is {what})."
        advice = f": {advice}" if advice else ""
        return f"Expected {self.expected}{f', but item {where} is' if where else ', got'} {what}{advice}."

    @property
    def fewer_digits(self) -> str:
        asked = f"; the question asks for the answer {self.answer_form}"
        if self.answer_form in ("the exact value", "a whole number"):
            what = "the answer is a whole number" if self.whole else "the question asks for the exact value"
            asked = f", but {what}: give all of its digits (the value your code computes)"
        return f"Close: right to the digits you gave{', in every entry' * (not self.scalar)}{asked}."

    @property
    def precision(self) -> str:
        """Why a float16/float32 cannot be judged: the first entry wrong as it prints (or as it holds)."""
        dtype, form = self.given.dtype, self.answer_form or ""  # a function's results have no form
        off = (Answer(self.stored, self.target, self.question) if self.passes() else self).off()
        index = _first(off) if off.any() else _first(np.ones_like(off))
        where, held = f"entry {index}" if index else "it", as_typed(float(self.stored[index]))
        then = "return that" if self.subject == "its result" else "give the value you get"
        asked = f"the value {form}" if form.startswith("to ") else "the exact value" if form else "the value"
        return (
            f"Too few digits: np.{dtype} keeps only about {np.finfo(dtype).precision} significant digits, "
            f"not enough for {asked} the question asks for: {where} holds {held}. "
            f"Compute in float64 (a plain Python float, or np.float64) and {then}."
        )

    @property
    def not_finite(self) -> str:
        bad, nan = ~np.isfinite(self.read), np.isnan(self.read).any()
        what = f"contains NaN or infinity ({int(bad.sum())} of {bad.size} entries, the first at index"
        what = f"{what} {_first(bad)})"
        if self.scalar:
            what = f"is {'NaN (not a number)' if nan else f'infinite ({self.read})'}"
        why = "the result of an undefined operation such as 0/0, inf − inf or the mean of an empty array"
        why = (why if self.scalar else f"NaN is {why}") if nan else "something overflowed or was divided by 0"
        return f"Not quite: {self.subject} {what}: {why}."

    @property
    def differ(self) -> str:
        off = self.off()
        return f"{int(np.sum(off))} of {self.read.size} entries differ, the first at index {_first(off)}"


def _first(where: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(where)[0])


def _words(words: Sequence[str]) -> str:
    quoted = [repr(word) for word in sorted(set(words))]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1] if len(quoted) > 1 else "".join(quoted)


#: ``name``: what it recognises; ``applies(x)``: whether it does, true only if no rule before it applied
#: (what it returns is ``{it}`` in the message: the typical mistake's explanation); ``message``: what
#: it says, a template (``{a.…}`` are attributes of ``x``) or a function of ``x``; ``passed``: right.
Rule = namedtuple("Rule", "name applies message passed", defaults=[False])


def judge(subject: Any, rules: Sequence[Rule]) -> CheckResult:
    """The verdict of the first rule that applies to ``subject``."""
    for rule in rules:  # every list ends with a rule that always applies
        if it := rule.applies(subject):
            message = (
                rule.message(subject) if callable(rule.message) else rule.message.format(a=subject, it=it)
            )
            return CheckResult(rule.passed, message)


DIFFERENCES = [  # the answer is of the kind asked for, not a typical mistake, and wrong
    Rule(
        "a word not among the choices",
        lambda a: a.word and normalise(a.read) not in map(normalise, a.question.choices or [a.read]),
        lambda a: f"Not quite: {a.shown} is not one of the words asked for ({_words(a.question.choices)}).",
    ),
    Rule("a wrong word", lambda a: a.word, "Not quite: {a.shown} is not the right word; try hint()."),
    Rule("a wrong True/False", lambda a: a.boolean, "Not quite: {a.read} is not right; try hint()."),
    Rule(
        "a decimal comma: (2, 4) for 2.4",
        lambda a: a.scalar and isinstance(a.given, tuple) and [type(x) for x in a.given] == [int, int],
        "{a.got} (Python reads a comma as two numbers: write a decimal with a point, "
        "{a.given[0]}.{a.given[1]}).",
    ),
    Rule(
        "one number with a trailing comma",
        lambda a: a.scalar and a.read.shape and a.read.size == 1 and isinstance(a.given, tuple),
        "{a.got}: a trailing comma makes a tuple; remove it.",
    ),
    Rule(
        "one number in brackets",
        lambda a: a.scalar and a.read.shape and a.read.size == 1,
        "{a.got}: write it without brackets.",
    ),
    Rule("a wrong shape", lambda a: a.read.shape != a.target.shape, "{a.got}."),
    Rule("NaN or infinity", lambda a: not np.isfinite(a.read).all(), "{a.not_finite}"),
    Rule(
        "nearly a whole number",
        lambda a: a.scalar and a.whole and abs(a.read - a.target) < 0.01,
        "Not quite: the answer is a whole number, and {a.shown} is not one; give it exactly.",
    ),
    Rule("a wrong number", lambda a: a.scalar, "Not quite: {a.shown} is not the right value; try hint()."),
    Rule(
        "some entries differ",
        lambda a: True,
        "Not quite: the shape {a.read.shape} is right but some values are not: {a.differ}; try hint().",
    ),
]
VALUE_RULES = [
    Rule("a float16/float32 that holds too few digits", Answer.held_too_few_digits, "{a.precision}"),
    Rule("right", Answer.passes, CORRECT, passed=True),
    Rule("a typical mistake", lambda a: a.mistake(Answer.passes), "Not quite. {it}"),
    Rule("not the kind of answer asked for", lambda a: a.refused, "{a.refusal}"),
    Rule("right to the digits given, but fewer than asked for", Answer.digits_close, "{a.fewer_digits}"),
    Rule(
        "cut off, not rounded",
        lambda a: a.within(1.0) and a.cut_off(),
        "Close, but not right {a.answer_form}: you cut the digits off{a.off_entries}. Round to the nearest "
        "instead (a next digit of 5 or more rounds the last one up).",
    ),
    Rule(
        "more digits than asked for, the last one asked off",
        lambda a: a.within(1.0) and a.more_decimals(),
        "Close, but not right {a.answer_form}: your value is off by more than half a unit of the last digit "
        "asked for{a.off_entries}. Compare it with what your code computes at full precision.",
    ),
    Rule(
        "the last digit asked for off by one",
        lambda a: a.within(1.0),
        "Close, but not right {a.answer_form}: the last digit is off by one{a.off_entries}. Round only the "
        "final value: rounding an intermediate result first can move the last digit.",
    ),
    Rule("a typical mistake, rounded", lambda a: a.mistake(Answer.digits_close), "Not quite. {it}"),
    *DIFFERENCES,
]


def _arguments(case: tuple[Any, ...]) -> str:
    shown = [
        f"<array of shape {x.shape}>" if isinstance(x, np.ndarray) and x.size > 6 else short_repr(x, 50)
        for x in (x.item() if isinstance(x, np.generic) else x for x in case)
    ]
    return f"({', '.join(shown)}{',' * (len(case) == 1)})"


class Run:
    """A learner's function (``given``, named by ``given_as``) run on each case of ``exercise``: ``calls``
    (None if it is not a function; cut at the first error), each with its ``value`` or ``error``, what it
    printed or warned (``extra``) and its ``result`` (an ``Answer`` with its ``arguments``); the first
    result not of the reference's kind (``bad``), the first wrong (``wrong``), the first wrong by more
    than a float16/float32 rounding (``far``), and the explanation of the first typical mistake whose
    results all of them match (``mistake``); these are None until every call returned."""

    def __init__(self, given: Any, exercise: FunctionExercise):
        self.given_as, self.cases, self.calls = describe(given)[0], exercise._cases, None
        self.bad = self.wrong = self.far = self.mistake = None
        if not callable(given) or isinstance(given, type):
            return
        (targets, mistakes), self.calls = exercise._results, []
        for case, target in zip(self.cases, targets, strict=True):
            with np.errstate(all="warn"):
                call = _quietly(lambda case=case: given(*copy.deepcopy(case)), (Exception, SystemExit))
            self.calls.append(call)
            if call.error is not None:
                return
            call.result = Answer(call.value, target, exercise, subject="its result")
            call.result.arguments, call.result.extra = _arguments(case), call.extra
        found = [call.result for call in self.calls]
        self.bad = next((one for one in found if one.refused), None)
        self.wrong = next((one for one in found if not one.matches()), None)
        self.far = next((one for one in found if not one.matches() and not one.held_too_few_digits()), None)
        for results, text in mistakes:
            if results and all(one.against(x).matches() for one, x in zip(found, results, strict=True)):
                self.mistake = text
                break

    @property
    def raised(self) -> str:
        error, done = self.calls[-1].error, len(self.calls)
        arrays = [any(isinstance(x, np.ndarray) and x.size > 1 for x in case) for case in self.cases[:done]]
        text = " ".join(str(error).split())
        text = type(error).__name__ + (f": {text}" if len(text) <= 160 else f": {text[:159]}…") * bool(text)
        advice = (
            " It ran on the single numbers of the earlier cases, so it probably uses something that takes "
            "one number at a time (math.…, float(…), an `if` on the value), and the question asks for "
            "arrays too: NumPy's functions (np.…, np.where) work on every entry of an array at once."
        )
        return (
            f"Your function raised {text} on arguments {_arguments(self.cases[done - 1])}."
            f"{advice * (arrays[-1] and not all(arrays[:-1]))}{self.calls[-1].extra}"
        )

    def returned(self, a: Answer) -> str:
        """What a function returned that is not of the reference's kind (an Answer that is refused)."""
        what = (
            f"{describe(a.given)[0]} whose item {a.read.where} is " * bool(a.read.where) + a.read.description
        )
        advice = f": {a.read.advice}" * bool(a.read.advice)
        if a.read.description.startswith(("text ", "bytes ")) or a.read.description.endswith(" of text"):
            advice = ": return numbers, not text (no str(…), f-string or format around them)"
        return f"Your function returned {what} on arguments {a.arguments}, not {a.expected}{advice}.{a.extra}"

    def wrong_result(self, a: Answer) -> str:
        """A result of the reference's kind that is wrong: on which arguments, and how."""
        how = judge(a, DIFFERENCES).message.removeprefix("Not quite: ")
        return f"Not quite: wrong result for arguments {a.arguments}. {how[:1].upper()}{how[1:]}{a.extra}"


FUNCTION_RULES = [
    Rule(
        "not a function",
        lambda run: run.calls is None,
        "Expected a function, got {a.given_as}. Define it with def name(…): … return …, then give the "
        "function itself, without calling it: answer = name (no parentheses).",
    ),
    Rule("it raised an error", lambda run: run.calls[-1].error is not None, "{a.raised}"),
    Rule("it returned what was not asked for", lambda run: run.bad, lambda run: run.returned(run.bad)),
    Rule("right", lambda run: run.wrong is None, CORRECT, passed=True),
    Rule("a typical mistake", lambda run: run.mistake, "Not quite. {it}"),
    Rule(
        "float16/float32 results too short",
        lambda run: run.far is None,
        "Not quite: wrong result for arguments {a.wrong.arguments}. {a.wrong.precision}{a.wrong.extra}",
    ),
    Rule("a wrong result", lambda run: True, lambda run: run.wrong_result(run.far)),
]


def _quietly(work: Callable[[], Any], catch: tuple = ()) -> SimpleNamespace:
    """``work()``'s ``value`` (or the ``error`` caught); its prints and warnings are quoted in ``extra``."""
    sink, call = io.StringIO(), SimpleNamespace(value=None, error=None)
    with warnings.catch_warnings(record=True) as caught, redirect_stdout(sink), redirect_stderr(sink):
        warnings.simplefilter("always")
        try:
            call.value = work()
        except catch as error:
            call.error = error
    call.extra = f" It printed {short_repr(sink.getvalue().strip(), 80)}." * bool(sink.getvalue().strip())
    if caught:
        call.extra += f" It warned: {caught[0].category.__name__}: {short_repr(str(caught[0].message), 80)}."
    return call


def _spelling(text: str) -> str:
    """``text`` without case, spaces or punctuation: "MoCo v3" → "mocov3"."""
    return "".join(character for character in text.lower() if character.isalnum())


def _target(value: Any) -> Target:
    value = value() if callable(value) else value  # a typical mistake may be computed
    if isinstance(value, str | bool | np.bool_):
        return value if isinstance(value, str) else bool(value)
    return np.asarray(value, dtype=np.float64)


class Exercise:
    """An exercise whose answer is a value: a number, an array of numbers, a word or True/False.

    ``expected``: the reference answer (a zero-argument callable is called once, when needed);
    ``mistakes``: typical wrong answers ``(value or callable, explanation)``; ``rtol``/``atol``: the
    tolerance; ``decimals``/``significant``: the digits the question asks for (at most one, see
    ``answer_form``); ``choices``: the words a word question allows (by default the expected word and
    those among the mistakes); ``aliases``: other spellings of a choice (compared without case, spaces
    or punctuation), each mapped to the choice or to ``(choice, note)``, the note shown after the verdict.
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
        decimals: int | None = None,
        significant: int | None = None,
        choices: Sequence[str] | None = None,
        aliases: Mapping[str, Any] | None = None,
    ) -> None:
        if decimals is not None and significant is not None:
            raise ValueError("give at most one of decimals and significant")
        for name, value, least in (("decimals", decimals, 0), ("significant", significant, 1)):
            if value is not None and (not isinstance(value, int) or value < least):
                raise ValueError(f"{name} must be an integer ≥ {least}, got {value!r}")
        self.question, self._expected, self._hint, self._solution = question, expected, hint, solution
        self._mistakes, self.rtol, self.atol = tuple(mistakes), rtol, atol
        self.decimals, self.significant, self._choices = decimals, significant, choices
        self._aliases = dict(aliases or {})

    @cached_property
    def _judging(self) -> tuple[Target, list[tuple[Target, str]], Any]:
        """The reference and the typical mistakes as compared, and the reference as given (computed once)."""
        reference = self._expected() if callable(self._expected) else self._expected
        return _target(reference), [(_target(wrong), text) for wrong, text in self._mistakes], reference

    @cached_property
    def choices(self) -> tuple[str, ...]:
        """The words a word question allows: ``choices``, else the expected word and the mistakes'."""
        target, mistakes, _ = self._judging
        words = [wrong for wrong, _ in mistakes if isinstance(wrong, str)]
        return tuple(self._choices if self._choices is not None else (target, *words) if words else ())

    @cached_property
    def _spellings(self) -> dict[str, tuple[str, str]]:
        """Each choice and alias as spelled without case, spaces or punctuation → (the choice, a note)."""
        spellings = {_spelling(word): (word, "") for word in self.choices}
        for alias, word in self._aliases.items():
            spellings[_spelling(alias)] = (word, "") if isinstance(word, str) else tuple(word)
        return spellings

    @property
    def expected(self) -> Any:
        """The reference answer (a copy: changing it changes nothing in the checker)."""
        return copy.deepcopy(self._judging[2])

    @property
    def answer_form(self) -> str | None:
        """The phrase a numeric question (and its notebook text) must contain ("to 4 decimals", "a whole
        number", "the exact value"); ``None`` for a word, a True/False or a function."""
        for count, word in ((self.decimals, "decimal"), (self.significant, "significant digit")):
            if count is not None:
                return f"to {count} {word}" + "s" * (count != 1)
        target = self._judging[0]
        if isinstance(target, np.ndarray):
            return "a whole number" if np.all(target == np.round(target)) else "the exact value"
        return None

    def check(self, answer: Any = PLACEHOLDER) -> CheckResult:
        """Compare ``answer`` with the reference and say what is wrong, if anything."""
        if answer is PLACEHOLDER:
            return CheckResult(False, NOT_ATTEMPTED)
        try:  # the learner's objects run only in here (``_quietly`` keeps their prints out of the output)
            spelled = _spelling(answer) if isinstance(answer, str) else None
            given, note = self._spellings.get(spelled, (answer, ""))
            with np.errstate(all="ignore"):
                result = _quietly(lambda: self._check(given)).value
        except Exception as error:  # a bug of the checker itself: say so, never a traceback
            return CheckResult(False, CHECKER_BUG.format(type(error).__name__))
        return CheckResult(result.passed, f"{result.message} {note}") if note else result

    def _check(self, answer: Any) -> CheckResult:
        target, mistakes, _ = self._judging
        return judge(Answer(answer, target, self, mistakes), VALUE_RULES)

    def hint(self) -> None:
        print(f"Hint: {self._hint}")

    def solution(self) -> None:
        print(self._solution)

    def __repr__(self) -> str:
        return self.question


class FunctionExercise(Exercise):
    """An exercise whose answer is a function, called on each argument tuple of ``cases`` (on fresh
    copies) and compared with ``reference``; each of ``mistakes`` is a wrong function. ``options``:
    ``hint``, ``solution``, ``rtol`` and ``atol``, as for ``Exercise``."""

    def __init__(self, question: str, reference: Callable, cases: Sequence[tuple], *, mistakes=(), **options):
        super().__init__(question, None, **options)
        self.reference, self._function_mistakes = reference, tuple(mistakes)
        self._cases = copy.deepcopy(tuple(tuple(case) for case in cases))

    @property
    def answer_form(self) -> None:
        """None: a function's results are compared within the tolerance, not to a number of digits."""
        return None

    @property
    def cases(self) -> tuple[tuple[Any, ...], ...]:
        """The argument tuples (a copy: changing it changes nothing in the checker)."""
        return copy.deepcopy(self._cases)

    def _run(self, function: Callable) -> list[Target]:
        return [_target(function(*copy.deepcopy(case))) for case in self._cases]

    @cached_property
    def _results(self) -> tuple[list[Target], list[tuple[list[Target] | None, str]]]:
        """The reference's results, and each typical mistake's (``None`` if it fails on some case)."""
        mistakes = [
            (_quietly(lambda w=wrong: self._run(w), (Exception,)).value, text)
            for wrong, text in self._function_mistakes
        ]
        return self._run(self.reference), mistakes

    def _check(self, answer: Any) -> CheckResult:
        return judge(Run(answer, self), FUNCTION_RULES)
