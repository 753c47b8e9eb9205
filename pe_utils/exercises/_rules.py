"""How an answer is judged: ordered lists of rules, each a name, when it applies, and its message.

The first rule that applies gives the verdict (``judge``). ``VALUE_RULES`` judge a value (a number,
an array, a word, True/False), ``FUNCTION_RULES`` a learner's function, whose results the refusal
and difference rules of ``VALUE_RULES`` describe case by case. To change a message or a tolerance,
find its rule by name here.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ._answers import Refusal, as_typed, describe, numbers_written_in, read_real, shape_words, short_repr

CORRECT = "Correct!"
Target = str | bool | np.ndarray  # what an answer is compared with: a word, True/False or a float64 array


def as_target(value: Any) -> Target:
    return value if isinstance(value, str) else bool(value) if isinstance(value, bool | np.bool_) \
        else np.asarray(value, dtype=np.float64)


def normalise(text: str) -> str:
    return " ".join(text.split()).strip("'\"`.!? ").lower()


def _digits(value: float) -> tuple[int, int]:
    """``(significant digits, exponent of the last one)`` of ``value`` as ``repr`` writes it."""
    _, digits, exponent = decimal.Decimal(repr(float(value))).normalize().as_tuple()
    return len(digits), int(exponent)


@dataclass(frozen=True)
class Form:
    """How answers are compared: the tolerance, the digits asked for, the words allowed."""

    rtol: float
    atol: float
    decimals: int | None = None
    significant: int | None = None
    choices: tuple[str, ...] = ()
    whole: bool = False  # a whole-number answer is exact (to 1e-9) or wrong

    def close(self, read: np.ndarray, target: np.ndarray) -> np.ndarray:
        rtol, atol = (0.0, 1e-9) if self.whole else (self.rtol, self.atol)
        return np.isclose(read, target, rtol=rtol, atol=atol)

    def unit(self, target: np.ndarray) -> np.ndarray | None:
        """One unit of the last digit asked for, per entry (``None`` if no digits are asked for)."""
        if self.decimals is not None:
            return np.full(target.shape, 10.0 ** -self.decimals)
        if self.significant is None:
            return None
        magnitude = np.floor(np.log10(np.where(target == 0, 1.0, np.abs(target))))
        return np.where(target == 0, 0.0, 10.0 ** (magnitude - self.significant + 1))

    def matches(self, read: Any, target: Target) -> bool:
        if isinstance(target, str):
            return isinstance(read, str) and normalise(read) == normalise(target)
        if isinstance(target, bool):
            return read is target
        return isinstance(read, np.ndarray) and read.shape == target.shape and bool(np.all(self.close(read, target)))

    def within(self, read: Any, target: Target, units: float) -> bool:
        """Every entry within ``units`` units of the last digit asked for (or close by rtol/atol)."""
        if not isinstance(target, np.ndarray) or not isinstance(read, np.ndarray) or read.shape != target.shape:
            return False
        unit = self.unit(target)
        return unit is not None and bool(np.all(np.isfinite(read))) and bool(np.all(
            (np.abs(read - target) <= units * unit * (1 + 1e-9)) | self.close(read, target)))

    def passes(self, read: Any, target: Target) -> bool:
        """Right: equal within the tolerance, or within half a unit of the last digit asked for."""
        return self.matches(read, target) or self.within(read, target, 0.5)

    def digits_close(self, read: Any, target: Target) -> bool:
        """Every entry right to the digits it shows (at least two; entries share NumPy's decimals)."""
        if not isinstance(target, np.ndarray) or not isinstance(read, np.ndarray) or read.shape != target.shape \
                or read.size == 0 or not np.all(np.isfinite(read)):
            return False
        flat, infos = read.ravel(), [_digits(value) for value in read.ravel()]
        decimals, units = max(max(0, -exponent) for _, exponent in infos), np.full(read.size, np.nan)
        if decimals >= 1:  # NumPy prints an array with common decimals: one unit for all
            if decimals < 2 and all(digits < 2 for (digits, _), value in zip(infos, flat) if value):
                return False  # a single digit such as 0.2 is too few to call close
            units[:] = 10.0 ** -decimals
        else:  # a whole number for a whole-number entry is exact or wrong: 1000 is not 1024
            for index, ((digits, exponent), value) in enumerate(zip(infos, flat)):
                if value and target.flat[index] != np.round(target.flat[index]):
                    units[index] = 10.0 ** exponent if digits >= 2 else 10.0 ** (exponent - 1) if exponent else np.nan
        with np.errstate(invalid="ignore"):
            within = np.abs(flat - target.ravel()) <= 0.5 * units * (1 + 1e-9)
        return bool(np.all(within | self.close(read, target).ravel()))

    def answer_form(self, target: Target) -> str:
        """The phrase a numeric question must contain: "to 4 decimals", "a whole number", …"""
        for count, word in ((self.decimals, "decimal"), (self.significant, "significant digit")):
            if count is not None:
                return f"to {count} {word}" + "s" * (count != 1)
        return "a whole number" if np.all(target == np.round(target)) else "the exact value"


@dataclass
class Answer:
    """One answer (``given``), read as the kind of ``target``, with the typical mistakes to try."""

    given: Any
    target: Target
    form: Form
    mistakes: Sequence[tuple[Target, str]] = ()
    subject: str = "your answer"
    budget: int = 1000
    reads: dict = field(default_factory=dict)

    def read_as(self, target: Target) -> Any:
        """``given`` as the kind of ``target`` (str, bool or float array), or a ``Refusal``."""
        key, answer = type(target), self.given
        if key not in self.reads:
            self.reads[key] = _read(answer, target, self.budget)
        return self.reads[key]

    @cached_property
    def read(self) -> Any:
        return self.read_as(self.target)

    def mistake(self, test: Callable[[Any, Target], bool]) -> str | None:
        """The explanation of the first typical mistake that ``test`` says the answer is."""
        return next((text for wrong, text in self.mistakes if test(self.read_as(wrong), wrong)), None)

    @property
    def refused(self) -> bool:
        return isinstance(self.read, Refusal)

    @property
    def number(self) -> bool:
        return isinstance(self.target, np.ndarray)

    @property
    def scalar(self) -> bool:
        return self.number and self.target.shape == ()

    @property
    def stored(self) -> np.ndarray | None:
        """The value a float16/float32 answer holds (read as the decimal it prints as)."""
        given = self.given
        low = isinstance(given, np.generic | np.ndarray) and given.dtype.kind == "f" and given.dtype.itemsize < 8
        return np.asarray(given, dtype=np.float64) if low else None


def _read(answer: Any, target: Target, budget: int) -> Any:
    if isinstance(target, str):
        if isinstance(answer, str):
            return answer
        if isinstance(answer, bool | np.bool_ | int | float | np.number):
            return Refusal(f"the value {short_repr(answer)}", "write the word between quotes, e.g. 'word'")
        return Refusal(describe(answer)[0], "write the word itself between quotes, e.g. 'word'")
    if isinstance(target, bool):
        if isinstance(answer, bool | np.bool_):
            return bool(answer)
        if isinstance(answer, str) and normalise(answer) in ("true", "false"):
            return Refusal(f"text {short_repr(answer)}", f"write {answer.strip()} without quotes")
        return Refusal(describe(answer)[0], "answer True or False, without quotes")
    if isinstance(answer, str) and target.shape == ():
        inside = answer.strip().strip("[]()").strip()
        if len(numbers_written_in(answer)) >= 2:
            return Refusal(f"text {short_repr(answer)}", "the answer is a single number: write it without quotes")
        if inside != answer.strip() and len(numbers_written_in(inside)) == 1:
            return Refusal(f"text {short_repr(answer)}", f"write {inside}, without quotes or brackets")
    return read_real(answer, budget)


@dataclass(frozen=True)
class Rule:
    """``name``: what it recognises; ``applies(x)``: whether it does; ``message(x)``: what it says."""

    name: str
    applies: Callable[[Any], bool]
    message: Callable[[Any], str]
    passed: bool = False


def judge(subject: Any, rules: Sequence[Rule]) -> tuple[bool, str]:
    """The verdict of the first rule that applies to ``subject``."""
    rule = next(rule for rule in rules if rule.applies(subject))
    return rule.passed, rule.message(subject)


def unprefixed(message: str) -> str:
    """``message`` without a leading "Not quite: " (for a sentence that already says it)."""
    rest = message.removeprefix("Not quite: ")
    return rest[:1].upper() + rest[1:]


def _words(words: Sequence[str]) -> str:
    quoted = [repr(word) for word in sorted(set(words))]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1] if len(quoted) > 1 else "".join(quoted)


def _expected(a: Answer) -> str:
    if isinstance(a.target, str):
        return f"one of the words {_words(a.form.choices)}, as text in quotes" if a.form.choices \
            else "a word, as text in quotes"
    if isinstance(a.target, bool):
        return "True or False"
    if a.scalar:
        return "a number"
    if a.target.ndim == 1:
        return f"a list or array of {shape_words(a.target.shape)} (shape {a.target.shape})"
    return f"an array of shape {a.target.shape}"


def _entries(a: Answer, off: np.ndarray) -> str:
    """Which entries ``off`` marks: "" for a single number, " in every entry", " in entry (1,)"."""
    if not a.target.ndim:
        return ""
    where = [tuple(int(i) for i in index) for index in np.argwhere(off)]
    return " in every entry" if off.all() else f" in entr{'y' if len(where) == 1 else 'ies'} " \
        + ", ".join(map(str, where[:4]))


def _close(a: Answer) -> str:
    every, form = ", in every entry" if a.target.ndim else "", a.form.answer_form(a.target)
    if form == "a whole number":
        return f"Close: right to the digits you gave{every}, but the answer is a whole number: give all of its digits."
    if form == "the exact value":
        return (f"Close: right to the digits you gave{every}, but the question asks for the exact value: "
                "give all of its digits (the value your code computes).")
    return f"Close: right to the digits you gave{every}; the question asks for the answer {form}."


def _off(a: Answer) -> np.ndarray:
    """The entries more than half a unit of the last digit asked for away."""
    return ~(a.form.close(a.read, a.target) | (np.abs(a.read - a.target) <= 0.5 * a.form.unit(a.target) * (1 + 1e-9)))


def _cut_off(a: Answer) -> bool:
    unit = a.form.unit(a.target)
    with np.errstate(divide="ignore", invalid="ignore"):
        cut = np.where(unit > 0, np.trunc(a.target / np.where(unit > 0, unit, 1.0)) * unit, a.target)
    return bool(np.all(np.isclose(a.read, cut, rtol=1e-12, atol=0.0) | (unit == 0)))


def _more_decimals(a: Answer) -> bool:
    unit = a.form.unit(a.target)
    asked = int(np.max(np.maximum(0, -np.round(np.log10(np.where(unit > 0, unit, 1.0))))))
    return max(max(0, -_digits(value)[1]) for value in a.read.ravel()) > asked


def _precision(a: Answer) -> str:
    dtype, stored = a.given.dtype, a.stored
    asked = f"the value {a.form.answer_form(stored)}" if a.form.unit(stored) is not None else "the exact value"
    return (f"Close, but np.{dtype} keeps only about {np.finfo(dtype).precision} significant digits: it holds "
            f"{as_typed(float(stored.flat[0])) if stored.size else ''}{' (first entry)' * bool(stored.ndim)}, "
            f"not {asked} the question asks for. Compute in float64 (a plain Python float, or np.float64) and give that.")


def _noun(a: Answer) -> str:
    given = a.given
    return f"a {type(given).__name__}" if isinstance(given, list | tuple | range) \
        else "an array" if isinstance(given, np.ndarray) else "a value"


def _decimal_comma(a: Answer) -> bool:
    given = a.given
    return isinstance(given, tuple) and len(given) == 2 and all(type(part) is int for part in given)


def _differs(a: Answer) -> str:
    right = a.form.close(a.read, a.target)
    if a.form.unit(a.target) is not None:  # an entry right to the digits asked for is not one of the wrong ones
        right |= np.abs(a.read - a.target) <= 0.5 * a.form.unit(a.target) * (1 + 1e-9)
    first = tuple(int(i) for i in np.argwhere(~right)[0])
    return (f"Not quite: the shape {a.read.shape} is right but some values are not: {int(np.sum(~right))} "
            f"of {a.read.size} entries differ, the first at index {first}; try hint().")


def _several(a: Answer) -> bool:
    return isinstance(a.given, list | tuple | range) or isinstance(a.given, np.ndarray) and a.given.ndim > 0


def _refused(a: Answer) -> str:
    refusal = a.read
    path = refusal.where if len(refusal.where) <= 40 else refusal.where[:39] + "…"
    where = f", but item {path} is" if path else ", got"
    return f"Expected {_expected(a)}{where} {refusal.description}{f': {refusal.advice}' if refusal.advice else ''}."


def _shape(a: Answer) -> bool:
    return a.read.shape != a.target.shape


def _one_unit(a: Answer) -> bool:
    return a.form.within(a.read, a.target, 1.0)


REFUSALS = [
    Rule("one number asked for, several given", lambda a: a.refused and a.scalar and _several(a) and not a.read.huge,
         lambda a: f"Expected a single number, got {describe(a.given)[0]}."),
    Rule("a number too large for a float", lambda a: a.refused and a.read.huge,
         lambda a: f"Not quite: that is {a.read.description}, far too large; the answer is an ordinary-sized "
                   "number (it fits in a float); try hint()."),
    Rule("too many numbers to read", lambda a: a.refused and a.read.shape is not None and a.number,
         lambda a: f"Expected {'a single number' if a.scalar else f'shape {a.target.shape}'}, got {a.read.description}."),
    Rule("not the kind of answer asked for", lambda a: a.refused, _refused),
]
DIFFERENCES = [
    Rule("a word not among the choices",
         lambda a: isinstance(a.target, str) and a.form.choices and normalise(a.read) not in map(normalise, a.form.choices),
         lambda a: f"Not quite: {short_repr(a.read)} is not one of the words asked for ({_words(a.form.choices)})."),
    Rule("a wrong word", lambda a: isinstance(a.target, str),
         lambda a: f"Not quite: {short_repr(a.read)} is not the right word; try hint()."),
    Rule("a wrong True/False", lambda a: isinstance(a.target, bool), lambda a: f"Not quite: {a.read} is not right; try hint()."),
    Rule("a decimal comma (2, 4) for one number", lambda a: a.scalar and _shape(a) and _decimal_comma(a),
         lambda a: f"Expected a single number, got {_noun(a)} of shape {a.read.shape} (Python reads a comma as two "
                   f"numbers: write a decimal with a point, {a.given[0]}.{a.given[1]})."),
    Rule("one number in brackets", lambda a: a.scalar and _shape(a) and a.read.size == 1,
         lambda a: f"Expected a single number, got {_noun(a)} of shape {a.read.shape}: write the number without brackets."),
    Rule("several numbers for one", lambda a: a.scalar and _shape(a),
         lambda a: f"Expected a single number, got {_noun(a)} of shape {a.read.shape}."),
    Rule("one number for several", lambda a: _shape(a) and a.read.shape == (),
         lambda a: f"Expected shape {a.target.shape}"
                   f"{f' ({shape_words(a.target.shape)})' if a.target.ndim == 1 else ''}, got a single number."),
    Rule("a wrong shape", _shape, lambda a: f"Expected shape {a.target.shape}, got {_noun(a)} of shape {a.read.shape}."),
    Rule("NaN", lambda a: a.scalar and np.isnan(a.read),
         lambda a: f"Not quite: {a.subject} is NaN (not a number), the result of an undefined operation such as "
                   "0/0, inf − inf or the mean of an empty array."),
    Rule("infinite", lambda a: a.scalar and not np.isfinite(a.read),
         lambda a: f"Not quite: {a.subject} is infinite ({float(a.read)}): something overflowed or was divided by 0."),
    Rule("nearly a whole number", lambda a: a.scalar and a.form.whole and abs(float(a.read) - float(a.target)) < 0.01,
         lambda a: f"Not quite: the answer is a whole number, and {as_typed(float(a.read))} is not one; give it exactly."),
    Rule("a wrong number", lambda a: a.scalar,
         lambda a: f"Not quite: {as_typed(float(a.read))} is not the right value; try hint()."),
    Rule("NaN or infinity in an array", lambda a: not np.all(np.isfinite(a.read)),
         lambda a: f"Not quite: {a.subject} contains NaN or infinity ({int(np.sum(~np.isfinite(a.read)))} of "
                   f"{a.read.size} entries, the first at index {tuple(int(i) for i in np.argwhere(~np.isfinite(a.read))[0])})."),
    Rule("some entries differ", lambda a: True, _differs),
]
VALUE_RULES = [
    Rule("right, but a float16/float32 holds too few digits",
         lambda a: a.form.passes(a.read, a.target) and a.stored is not None and not a.form.passes(a.stored, a.target),
         _precision),
    Rule("right", lambda a: a.form.passes(a.read, a.target), lambda a: CORRECT, passed=True),
    Rule("a typical mistake", lambda a: a.mistake(a.form.passes), lambda a: f"Not quite. {a.mistake(a.form.passes)}"),
    *REFUSALS,
    Rule("right to the digits given, but fewer than asked for", lambda a: a.form.digits_close(a.read, a.target), _close),
    Rule("cut off, not rounded", lambda a: _one_unit(a) and _cut_off(a),
         lambda a: f"Close, but not right {a.form.answer_form(a.target)}: you cut the digits off{_entries(a, _off(a))}. "
                   "Round to the nearest instead (a next digit of 5 or more rounds the last one up)."),
    Rule("more digits than asked for, off in the last one asked", lambda a: _one_unit(a) and _more_decimals(a),
         lambda a: f"Close, but not right {a.form.answer_form(a.target)}: your value is off by more than half a unit "
                   "of the last digit asked for. Compare it with what your code computes at full precision."),
    Rule("the last digit asked for off by one", _one_unit,
         lambda a: f"Close, but not right {a.form.answer_form(a.target)}: the last digit is off by one"
                   f"{_entries(a, _off(a))}. Round only the final value: rounding an intermediate result first can "
                   "move the last digit."),
    Rule("a typical mistake, right to the digits given", lambda a: a.mistake(a.form.digits_close),
         lambda a: f"Not quite. {a.mistake(a.form.digits_close)}"),
    *DIFFERENCES,
]


# --- a learner's function -----------------------------------------------------------------------

@dataclass
class Call:
    """What one call of the learner's function did: its value or error, what it printed and warned."""

    value: Any = None
    error: BaseException | None = None
    printed: str = ""
    warned: str = ""

    def extra(self) -> str:
        notes = [f"It printed {short_repr(self.printed.strip(), 80)}."] * bool(self.printed.strip())
        notes += [f"It warned: {self.warned}."] * bool(self.warned)
        return "".join(" " + note for note in notes)


def arguments(case: tuple[Any, ...]) -> str:
    shown = [as_typed(float(x), short=True) if isinstance(x, np.generic) and x.dtype.kind in "iuf"
             else f"<array of shape {x.shape}>" if isinstance(x, np.ndarray) and x.size > 6 else short_repr(x, 50)
             for x in case]
    return f"({', '.join(shown)},)" if len(case) == 1 else f"({', '.join(shown)})"


def _error_text(error: BaseException) -> str:
    try:
        text = " ".join(str(error).split())
    except Exception:
        text = ""
    text = text if len(text) <= 160 else text[:159] + "…"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _holds_array(case: tuple[Any, ...]) -> bool:
    return any(isinstance(argument, np.ndarray) and argument.size > 1 for argument in case)


@dataclass
class Run:
    """A learner's function (``given``) called on each case (``calls``, stopped at the first error);
    each result read as the reference's (``results``)."""

    given: Any
    cases: Sequence[tuple[Any, ...]]
    calls: list[Call]
    results: list[Answer]
    mistakes: Sequence[tuple[list[Target] | None, str]]

    def first(self, test: Callable[[Answer], bool]) -> tuple[tuple[Any, ...], Call, Answer] | None:
        """The first case whose result ``test`` picks out, with its call and result."""
        return next((found for found in zip(self.cases, self.calls, self.results) if test(found[2])), None)

    @property
    def failed(self) -> bool:
        return bool(self.calls) and self.calls[-1].error is not None

    @property
    def bad(self) -> tuple | None:  # the first result that is None or not of the reference's kind
        return self.first(lambda result: result.given is None or result.refused)

    @property
    def wrong(self) -> tuple | None:
        return self.first(lambda result: not result.form.matches(result.read, result.target))

    @property
    def mistake(self) -> str | None:
        return next((text for targets, text in self.mistakes if targets is not None and all(
            result.form.matches(result.read, wrong) for result, wrong in zip(self.results, targets))), None)


def _raised(run: Run) -> str:
    case, call = run.cases[len(run.calls) - 1], run.calls[-1]
    numbers_first = _holds_array(case) and any(not _holds_array(done) for done in run.cases[: len(run.calls) - 1])
    advice = (" It ran on the single numbers of the earlier cases, so it probably uses something that takes one "
              "number at a time (math.…, float(…), an `if` on the value), and the question asks for arrays too: "
              "NumPy's functions (np.…, np.where) work on every entry of an array at once.") * numbers_first
    return f"Your function raised {_error_text(call.error)} on arguments {arguments(case)}.{advice}{call.extra()}"


def _bad(run: Run) -> str:
    case, call, result = run.bad
    return (f"Not quite: on arguments {arguments(case)} your function did not return what was asked. "
            f"{unprefixed(judge(result, REFUSALS)[1])}{call.extra()}")


def _wrong(run: Run) -> str:
    case, call, result = run.wrong
    return f"Not quite: wrong result for arguments {arguments(case)}. {unprefixed(judge(result, DIFFERENCES)[1])}" \
        f"{call.extra()}"


FUNCTION_RULES = [
    Rule("not a function", lambda run: run.calls is None,
         lambda run: f"Expected a function, got {describe(run.given)[0]}. Define it with def name(…): … return …, "
                     "then give the function itself, without calling it: answer = name (no parentheses)."),
    Rule("it raised an error", lambda run: run.failed, _raised),
    Rule("it returned None", lambda run: run.bad is not None and run.bad[2].given is None,
         lambda run: f"Your function returned None on arguments {arguments(run.bad[0])}: did you forget `return`? "
                     "(Changing the input in place is not enough: return the result.)" + run.bad[1].extra()),
    Rule("it returned what is not of the reference's kind", lambda run: run.bad is not None, _bad),
    Rule("right", lambda run: run.wrong is None, lambda run: CORRECT, passed=True),
    Rule("a typical mistake", lambda run: run.mistake, lambda run: f"Not quite. {run.mistake}"),
    Rule("a wrong result", lambda run: True, _wrong),
]
