"""Self-checking exercises for the "Check yourself" section of each notebook.

Each notebook ``NN`` has a module ``pe_utils.exercises.nbNN`` whose exercise
objects offer ``check(answer)``, ``hint()`` and ``solution()``. Usage::

    from pe_utils.exercises import nb03
    answer = ...            # the learner replaces this
    nb03.wavelength_of_last_pair.check(answer)

The contract of ``check`` (tested over every exercise object by
``tests/test_exercises_generic.py``):

* It returns a ``CheckResult`` (true when right; its ``repr`` is the message)
  and nothing else: whatever the answer, it never raises, never prints, never
  warns. The ``...`` placeholder gets ``NOT_ATTEMPTED``. Every other failure
  says something specific: never a bare "Not quite.". (Should the checker
  itself fail, it says so in its message rather than raising.)
* **Numbers.** Where the expected value is numeric, only real numbers are read:
  Python ``int``/``float``, NumPy real scalars and real arrays, and lists,
  tuples or ranges of those. Text (``"4"``), booleans (``True``, ``np.bool_``),
  complex numbers, ``None``, dicts, sets, generators, functions, classes,
  modules, masked entries and ragged lists are refused with a message that
  names what was given and what was expected. Nothing is converted blindly: an
  answer holding far more numbers than expected (``range(10**9)``) is refused
  by its size, unread; a generator is never iterated. A value is compared with
  ``np.isclose(answer, expected, rtol, atol)``, after the shapes agree.
* **Words.** Where the expected value is a ``str``, only text is accepted,
  compared without regard to case, spacing and surrounding quotes or final
  punctuation; anything else is told which words are allowed (``choices=``,
  by default the expected word and the words among the mistakes). A ``bool``
  expected value accepts only ``True``/``False`` (Python or NumPy).
* **Mistakes.** Each ``(value, explanation)`` in ``mistakes`` is a typical
  wrong answer; an answer matching it gets "Not quite. <explanation>".
* **Digits.** Every numeric answer has one of three forms, and the question
  says which (``answer_form``; ``tests/test_exercises_generic.py`` checks that the
  question and the notebook's text state it):

  - *a whole number* (every expected entry is whole): exact or wrong; a rounded
    one is wrong, never "close" (1000 is not 1024);
  - *rounded*: ``decimals=k`` ("to k decimals") or ``significant=k`` ("to k
    significant digits"): accepted when every entry is within half a unit of
    the k-th decimal (significant digit) of the expected value, so the value
    rounded as asked, and any more precise one, passes; nothing else does;
  - *exact* (a short decimal such as 0.0625, and no rounding asked): compared
    with the tolerance ``rtol``/``atol``.

  A real answer right to its own digits but short of what was asked (within
  half a unit of its last significant digit, with at least two significant
  digits or two decimals; an array's entries share the decimals NumPy prints)
  gets "Close: right to the digits you gave; the question asks for …", naming
  the form. An answer with the digits asked for but rounded the wrong way
  (within one unit of the last digit asked) is told to round to the nearest.
  A rounded typical mistake still gets its explanation.
* **Functions** (``FunctionExercise``): the learner's function is called once
  per case, each time on fresh deep copies of the arguments, so changing them
  in place cannot change the cases, the reference or later checks. Whatever
  it raises (any ``Exception``, and ``SystemExit``) is reported as its own,
  with the arguments; what it prints or warns is kept out of the output and
  quoted in the message. A function that ran on cases of single numbers and
  then raised on a case holding an array is told that it must take arrays
  (NumPy's functions, not ``math``'s or ``float``). Its results are read with the rules above (``None``
  gets "did you forget `return`?"), then compared with the reference's and
  with each typical mistake's results on every case.

Authors: ``solution`` is code that runs in the notebook's namespace and ends
with an ``answer = …`` line; the generic tests run it and check its answer.
"""

from __future__ import annotations

import copy
import decimal
import io
import warnings
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._answers import (
    Refusal,
    describe,
    format_number,
    is_function_like,
    numbers_written_in,
    read_real,
    shape_words,
    short_repr,
)

#: What the stored notebook keeps in place of an answer.
PLACEHOLDER = ...

NOT_ATTEMPTED = "Not attempted yet: replace ... with your answer and run the cell again."

CORRECT = "Correct!"


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


# --- what an answer is compared with ---------------------------------------------
# A "target" is a str (a word), a bool, or a float64 array (0-d for one number).

Target = str | bool | np.ndarray  # what an answer is compared with


def _as_target(value: Any) -> Target:
    if isinstance(value, str):
        return value
    if isinstance(value, bool | np.bool_):
        return bool(value)
    return np.asarray(value, dtype=np.float64)


@dataclass(frozen=True)
class _Rules:
    rtol: float
    atol: float
    decimals: int | None = None
    significant: int | None = None
    choices: tuple[str, ...] = ()
    #: A whole-number answer is exact or wrong: compared to 1e-9, not to ``rtol``.
    whole: bool = False


def _normalise(text: str) -> str:
    return " ".join(text.split()).strip("'\"`.!? ").lower()


def _word_list(words: Sequence[str]) -> str:
    quoted = [repr(word) for word in sorted(set(words))]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _expected_phrase(target: Target, rules: _Rules) -> str:
    if isinstance(target, str):
        if rules.choices:
            return f"one of the words {_word_list(rules.choices)}, as text in quotes"
        return "a word, as text in quotes"
    if isinstance(target, bool):
        return "True or False"
    if target.shape == ():
        return "a number"
    if target.ndim == 1:
        return f"a list or array of {shape_words(target.shape)} (shape {target.shape})"
    return f"an array of shape {target.shape}"


def _read(answer: Any, target: Target, budget: int) -> Any:
    """``answer`` as the kind of ``target`` (str, bool or float array), or a ``Refusal``."""
    if isinstance(target, str):
        if isinstance(answer, str):
            return answer
        if isinstance(answer, bool | np.bool_ | int | float | np.number):
            return Refusal(f"the value {short_repr(answer)}", "write the word between quotes, e.g. 'word'")
        # What the answer is, with word advice (not the number advice of ``describe``).
        return Refusal(describe(answer)[0], "write the word itself between quotes, e.g. 'word'")
    if isinstance(target, bool):
        if isinstance(answer, bool | np.bool_):
            return bool(answer)
        if isinstance(answer, str) and _normalise(answer) in ("true", "false"):
            return Refusal(f"text {short_repr(answer)}", f"write {answer.strip()} without quotes")
        return Refusal(describe(answer)[0], "answer True or False, without quotes")
    if isinstance(answer, str) and target.shape == ():
        inside = answer.strip().strip("[]()").strip()
        if len(numbers_written_in(answer)) >= 2:
            single = "the answer is a single number: write it without quotes"
            return Refusal(f"text {short_repr(answer)}", single)
        if inside != answer.strip() and len(numbers_written_in(inside)) == 1:
            return Refusal(f"text {short_repr(answer)}", f"write {inside}, without quotes or brackets")
    return read_real(answer, budget)


def _same_kind(read: Any, target: Target) -> bool:
    if isinstance(target, str):
        return isinstance(read, str)
    if isinstance(target, bool):
        return isinstance(read, bool)
    return isinstance(read, np.ndarray) and read.shape == target.shape


def _matches(read: Any, target: Target, rules: _Rules) -> bool:
    if not _same_kind(read, target):
        return False
    if isinstance(target, str):
        return _normalise(read) == _normalise(target)
    if isinstance(target, bool):
        return read == target
    return bool(np.all(_close(read, target, rules)))


def _close(read: np.ndarray, target: np.ndarray, rules: _Rules) -> np.ndarray:
    """Entry by entry: equal within the tolerance (exact, to 1e-9, for a whole-number answer)."""
    if rules.whole:
        return np.isclose(read, target, rtol=0.0, atol=1e-9)
    return np.isclose(read, target, rtol=rules.rtol, atol=rules.atol)


def _unit_asked(target: np.ndarray, rules: _Rules) -> np.ndarray | None:
    """One unit of the last digit the question asks for, per entry (``None`` if it asks none)."""
    if rules.decimals is not None:
        return np.full(target.shape, 10.0 ** (-rules.decimals))
    if rules.significant is not None:
        magnitude = np.floor(np.log10(np.where(target == 0, 1.0, np.abs(target))))
        return np.where(target == 0, 0.0, 10.0 ** (magnitude - rules.significant + 1))
    return None


def _within_units(read: Any, target: Target, rules: _Rules, units: float) -> bool:
    """Every entry within ``units`` units of the last digit asked for (or equal by rtol/atol)."""
    if not isinstance(target, np.ndarray) or not _same_kind(read, target):
        return False
    unit = _unit_asked(target, rules)
    if unit is None or not np.all(np.isfinite(read)):
        return False
    within = np.abs(read - target) <= units * unit * (1 + 1e-9)
    exact = _close(read, target, rules)
    return bool(np.all(within | exact))


def _rounded_as_asked(read: Any, target: Target, rules: _Rules) -> bool:
    """Right to the digits the question asks for: within half a unit of the last one."""
    return _within_units(read, target, rules, 0.5)


def answer_form(target: Target, rules: _Rules) -> str:
    """How the question asks for a numeric answer: the phrase it must contain."""
    if rules.decimals is not None:
        return f"to {rules.decimals} decimal" + ("" if rules.decimals == 1 else "s")
    if rules.significant is not None:
        return f"to {rules.significant} significant digit" + ("" if rules.significant == 1 else "s")
    if isinstance(target, np.ndarray) and np.all(target == np.round(target)):
        return "a whole number"
    return "the exact value"


def _digit_info(value: float) -> tuple[int, int]:
    """``(significant digits, exponent of the last one)`` of ``value`` as ``repr`` writes it."""
    _, digits, exponent = decimal.Decimal(repr(float(value))).normalize().as_tuple()
    return len(digits), int(exponent)


def _digits_close(read: Any, target: Target, rules: _Rules) -> bool:
    """True when every entry is right to the digits it shows (see the module docstring)."""
    if not isinstance(target, np.ndarray) or not _same_kind(read, target) or read.size == 0:
        return False
    if not np.all(np.isfinite(read)):
        return False
    exact = _close(read, target, rules)
    flat = read.ravel()
    infos = [_digit_info(value) for value in flat]
    decimals = max(max(0, -exponent) for _, exponent in infos)
    units = np.full(flat.shape, np.nan)
    if decimals >= 1:
        # Printed with decimals (NumPy prints an array with common decimals): one unit for all.
        if decimals < 2 and all(digits < 2 for (digits, _), value in zip(infos, flat, strict=True) if value):
            return False  # a single digit such as 0.2 is too few to call close
        units[:] = 10.0**-decimals
    else:
        whole_target = target.ravel() == np.round(target.ravel())
        for index, ((digits, exponent), value) in enumerate(zip(infos, flat, strict=True)):
            if value == 0 or whole_target[index]:
                continue  # a whole number for a whole-number answer is exact or wrong: 1000 is not 1024
            if digits >= 2:
                units[index] = 10.0**exponent
            elif exponent >= 1:  # 1000: its trailing zeros may be significant (read as 1.0e3)
                units[index] = 10.0 ** (exponent - 1)
    distance = np.abs(flat - target.ravel())
    with np.errstate(invalid="ignore"):
        within = distance <= 0.5 * units * (1 + 1e-9)
    return bool(np.all(within | exact.ravel()))


def _close_message(target: np.ndarray, rules: _Rules) -> str:
    every = ", in every entry" if target.ndim else ""
    form = answer_form(target, rules)
    if form == "a whole number":
        return (
            f"Close: right to the digits you gave{every}, but the answer is a whole number: "
            "give all of its digits."
        )
    if form == "the exact value":
        return (
            f"Close: right to the digits you gave{every}, but the question asks for the exact value: "
            "give all of its digits (the value your code computes)."
        )
    return f"Close: right to the digits you gave{every}; the question asks for the answer {form}."


def _truncated(target: np.ndarray, rules: _Rules) -> np.ndarray:
    """``target`` with the digits after the last one asked for cut off (toward zero)."""
    unit = _unit_asked(target, rules)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(unit > 0, np.trunc(target / np.where(unit > 0, unit, 1.0)) * unit, target)


def _decimals_given(read: np.ndarray) -> int:
    """The most decimals any entry of ``read`` shows, as Python writes it."""
    return max(max(0, -_digit_info(value)[1]) for value in read.ravel())


def _rounding_message(read: np.ndarray, target: np.ndarray, rules: _Rules) -> str:
    """For an answer off by at most one unit of the last digit asked for, but by more than half."""
    form = answer_form(target, rules)
    half_unit = 0.5 * _unit_asked(target, rules) * (1 + 1e-9)
    off = ~(_close(read, target, rules) | (np.abs(read - target) <= half_unit))
    every = ""
    if target.ndim:
        where = [tuple(int(i) for i in index) for index in np.argwhere(off)]
        every = (
            " in every entry" if off.all()
            else f" in entr{'y' if len(where) == 1 else 'ies'} {', '.join(map(str, where[:4]))}"
        )
    unit = _unit_asked(target, rules)
    asked_decimals = int(np.max(np.maximum(0, -np.round(np.log10(np.where(unit > 0, unit, 1.0))))))
    if np.all(np.isclose(read, _truncated(target, rules), rtol=1e-12, atol=0.0) | (unit == 0)):
        return (
            f"Close, but not right {form}: you cut the digits off{every}. Round to the nearest "
            "instead (a next digit of 5 or more rounds the last one up)."
        )
    if _decimals_given(read) > asked_decimals:
        return (
            f"Close, but not right {form}: your value is off by more than half a unit of the last "
            "digit asked for. Compare it with what your code computes at full precision."
        )
    return (
        f"Close, but not right {form}: the last digit is off by one{every}. Round only the final "
        "value: rounding an intermediate result first can move the last digit."
    )


def _as_given(value: float) -> str:
    """A learner's number as Python writes it (shortest form that reads back the same)."""
    if not np.isfinite(value):
        return repr(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _noun(answer: Any) -> str:
    if isinstance(answer, list | tuple | range):
        return f"a {type(answer).__name__}"
    if isinstance(answer, np.ndarray):
        return "an array"
    return "a value"


def _refusal_message(refusal: Refusal, target: Target, rules: _Rules, answer: Any) -> str:
    expected = _expected_phrase(target, rules)
    is_scalar = isinstance(target, np.ndarray) and target.shape == ()
    many = isinstance(answer, list | tuple | range) or (isinstance(answer, np.ndarray) and answer.ndim > 0)
    if is_scalar and many and not refusal.huge:
        return f"Expected a single number, got {describe(answer)[0]}."
    if refusal.huge:
        return (
            f"Not quite: that is {refusal.description}, far too large; the answer is an "
            "ordinary-sized number (it fits in a float); try hint()."
        )
    if refusal.shape is not None and isinstance(target, np.ndarray):
        if target.shape == ():
            return f"Expected a single number, got {refusal.description}."
        return f"Expected shape {target.shape}, got {refusal.description}."
    path = refusal.where if len(refusal.where) <= 40 else refusal.where[:39] + "…"
    where = f", but item {path} is" if refusal.where else ", got"
    advice = f": {refusal.advice}" if refusal.advice else ""
    return f"Expected {expected}{where} {refusal.description}{advice}."


def _difference(answer: Any, read: Any, target: Target, rules: _Rules, subject: str) -> str:
    """Why ``read`` (valid, of the right kind, not a mistake) is wrong."""
    if isinstance(target, str):
        words = rules.choices or (target,)
        if rules.choices and _normalise(read) not in {_normalise(word) for word in words}:
            return f"Not quite: {short_repr(read)} is not one of the words asked for ({_word_list(words)})."
        return f"Not quite: {short_repr(read)} is not the right word; try hint()."
    if isinstance(target, bool):
        return f"Not quite: {read} is not right; try hint()."
    if read.shape != target.shape:
        noun = _noun(answer)
        if target.shape == ():
            extra = ": write the number without brackets" if read.size == 1 else ""
            if isinstance(answer, tuple) and len(answer) == 2 and all(
                isinstance(part, int) and not isinstance(part, bool) for part in answer
            ):
                point = f"{answer[0]}.{answer[1]}"
                extra = f" (Python reads a comma as two numbers: write a decimal with a point, {point})"
            return f"Expected a single number, got {noun} of shape {read.shape}{extra}."
        if read.shape == ():
            words = f" ({shape_words(target.shape)})" if target.ndim == 1 else ""
            return f"Expected shape {target.shape}{words}, got a single number."
        return f"Expected shape {target.shape}, got {noun} of shape {read.shape}."
    finite = np.isfinite(read)
    if read.shape == ():
        if np.isnan(read):
            return (
                f"Not quite: {subject} is NaN (not a number), the result of an undefined operation "
                "such as 0/0, inf − inf or the mean of an empty array."
            )
        if not finite:
            return (
                f"Not quite: {subject} is infinite ({float(read)}): something overflowed or was "
                "divided by 0."
            )
        if rules.whole and abs(float(read) - float(target)) < 0.01:
            return (
                f"Not quite: the answer is a whole number, and {_as_given(float(read))} is not one; "
                "give it exactly."
            )
        return f"Not quite: {_as_given(float(read))} is not the right value; try hint()."
    if not np.all(finite):
        first = tuple(int(i) for i in np.argwhere(~finite)[0])
        return (
            f"Not quite: {subject} contains NaN or infinity ({int(np.sum(~finite))} of {read.size} "
            f"entries, the first at index {first})."
        )
    right = _close(read, target, rules)
    unit = _unit_asked(target, rules)
    if unit is not None:  # an entry right to the digits asked for is not one of the wrong ones
        right |= np.abs(read - target) <= 0.5 * unit * (1 + 1e-9)
    wrong = ~right
    first = tuple(int(i) for i in np.argwhere(wrong)[0])
    return (
        f"Not quite: the shape {read.shape} is right but some values are not: {int(np.sum(wrong))} "
        f"of {read.size} entries differ, the first at index {first}; try hint()."
    )


def _stored_value(answer: Any) -> np.ndarray | None:
    """The value a float16/float32 answer really holds (``None`` for any other answer).

    The reader takes such an entry as the decimal it prints as, so that the digits rule sees
    what the learner sees; a pass must also hold for the value itself (``np.float16(0.1)`` is
    0.0999755859375, which an exact 0.1 is not)."""
    if isinstance(answer, np.generic | np.ndarray) and answer.dtype.kind == "f" and answer.dtype.itemsize < 8:
        return np.asarray(answer, dtype=np.float64)
    return None


def _precision_message(answer: Any, stored: np.ndarray, rules: _Rules) -> str:
    dtype = answer.dtype
    digits = int(np.finfo(dtype).precision)
    held = _as_given(float(stored.flat[0])) if stored.size else ""
    asked = (f"the value {answer_form(stored, rules)}" if rules.decimals is not None
             or rules.significant is not None else "the exact value")
    first = " (first entry)" if stored.ndim else ""
    return (
        f"Close, but np.{dtype} keeps only about {digits} significant digits: it holds "
        f"{held}{first}, not {asked} the question asks for. Compute in float64 (a plain Python "
        "float, or np.float64) and give that."
    )


def _unprefixed(message: str) -> str:
    """``message`` without a leading "Not quite: " (for a sentence that already says it)."""
    if message.startswith("Not quite: "):
        rest = message.removeprefix("Not quite: ")
        return rest[:1].upper() + rest[1:]
    return message


def _budget(targets: Sequence[Target]) -> int:
    sizes = [target.size for target in targets if isinstance(target, np.ndarray)]
    return 10 * max(sizes, default=1) + 1000


def _guarded(judge: Callable[[], CheckResult]) -> CheckResult:
    """Run ``judge`` with no output, no warnings and no exception escaping."""
    sink = io.StringIO()
    try:
        with (
            warnings.catch_warnings(),
            np.errstate(all="ignore"),
            redirect_stdout(sink),
            redirect_stderr(sink),
        ):
            warnings.simplefilter("ignore")
            return judge()
    except Exception as error:  # a bug of the checker itself: say so, never a traceback
        return CheckResult(
            False,
            f"The checker could not judge this answer ({type(error).__name__}); compare yours with "
            "solution(), and please report this to the course authors.",
        )


class Exercise:
    """An exercise whose answer is a value: a number, an array of numbers, or a word.

    Parameters
    ----------
    question : str
        What is asked, shown by ``repr``.
    expected : value or zero-argument callable
        The reference answer (a callable is evaluated once, when first needed).
    hint : str
    solution : str
        Code that produces the reference answer, ending in an ``answer = …`` line.
    mistakes : sequence of (value or callable, explanation)
        Typical wrong answers and what each one gets wrong.
    rtol, atol : float
        Tolerance of the comparison.
    decimals, significant : int, optional
        The question asks for the answer rounded to this many decimals (or
        significant digits): accept every answer within half a unit of that
        digit of the expected value, and name it in "Close" messages. At most
        one of the two; the question must say it (``answer_form``).
    choices : sequence of str, optional
        For a word answer, the words the question allows (by default the expected
        word and the words among the mistakes).
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
    ) -> None:
        self.question = question
        self._expected = expected
        self._hint = hint
        self._solution = solution
        self._mistakes = tuple(mistakes)
        self.rtol = rtol
        self.atol = atol
        if decimals is not None and significant is not None:
            raise ValueError("give at most one of decimals and significant")
        for name, value, least in (("decimals", decimals, 0), ("significant", significant, 1)):
            if value is not None and (not isinstance(value, int) or value < least):
                raise ValueError(f"{name} must be an integer ≥ {least}, got {value!r}")
        self.decimals = decimals
        self.significant = significant
        self._choices = tuple(choices) if choices is not None else None
        self._resolved: dict[str, Any] = {}

    # The reference and the mistakes are computed once and kept private: what
    # ``expected`` hands out is a copy, so nothing outside can change them.
    def _cached(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._resolved:
            self._resolved[key] = make()
        return self._resolved[key]

    @property
    def expected(self) -> Any:
        """The reference answer (a copy)."""
        return copy.deepcopy(self._cached("expected", lambda: _resolve(self._expected)))

    def _target(self) -> Target:
        def make() -> Target:
            return _as_target(self._cached("expected", lambda: _resolve(self._expected)))

        return self._cached("target", make)

    def _mistake_targets(self) -> list[tuple[Target, str]]:
        return self._cached(
            "mistakes",
            lambda: [(_as_target(_resolve(wrong)), explanation) for wrong, explanation in self._mistakes],
        )

    def _rules(self) -> _Rules:
        choices = self._choices
        if choices is None:
            words = [target for target, _ in self._mistake_targets() if isinstance(target, str)]
            target = self._target()
            choices = (target, *words) if isinstance(target, str) and words else ()
        target = self._target()
        whole = (
            isinstance(target, np.ndarray)
            and self.decimals is None
            and self.significant is None
            and bool(np.all(target == np.round(target)))
        )
        return _Rules(self.rtol, self.atol, self.decimals, self.significant, tuple(choices), whole)

    @property
    def answer_form(self) -> str | None:
        """How the question asks for a numeric answer ("to 4 decimals", "a whole number", …).

        ``None`` for a word, a True/False or a function answer. The question, and the
        notebook's text of the exercise, must contain this phrase (a generic test checks).
        """
        target = self._target()
        return answer_form(target, self._rules()) if isinstance(target, np.ndarray) else None

    def check(self, answer: Any = PLACEHOLDER) -> CheckResult:
        """Compare ``answer`` with the reference and say what is wrong, if anything."""
        if answer is PLACEHOLDER:
            return CheckResult(False, NOT_ATTEMPTED)
        return _guarded(lambda: self._check(answer))

    def _check(self, answer: Any) -> CheckResult:
        target, mistakes, rules = self._target(), self._mistake_targets(), self._rules()
        budget = _budget([target, *(wrong for wrong, _ in mistakes)])
        reads: dict[type, Any] = {}

        def read_as(kind_of: Target) -> Any:
            key = type(kind_of)
            if key not in reads:
                reads[key] = _read(answer, kind_of, budget)
            return reads[key]

        read = read_as(target)
        if _matches(read, target, rules) or _rounded_as_asked(read, target, rules):
            stored = _stored_value(answer)
            if stored is not None and not (_matches(stored, target, rules)
                                           or _rounded_as_asked(stored, target, rules)):
                return CheckResult(False, _precision_message(answer, stored, rules))
            return CheckResult(True, CORRECT)
        for wrong, explanation in mistakes:
            if _matches(read_as(wrong), wrong, rules) or _rounded_as_asked(read_as(wrong), wrong, rules):
                return CheckResult(False, f"Not quite. {explanation}")
        if isinstance(read, Refusal):
            return CheckResult(False, _refusal_message(read, target, rules, answer))
        if _digits_close(read, target, rules):
            return CheckResult(False, _close_message(target, rules))
        if _within_units(read, target, rules, 1.0):
            return CheckResult(False, _rounding_message(read, target, rules))
        for wrong, explanation in mistakes:
            if _digits_close(read_as(wrong), wrong, rules):
                return CheckResult(False, f"Not quite. {explanation}")
        return CheckResult(False, _difference(answer, read, target, rules, "your answer"))

    def hint(self) -> None:
        """Print a hint."""
        print(f"Hint: {self._hint}")

    def solution(self) -> None:
        """Print a reference solution."""
        print(self._solution)

    def __repr__(self) -> str:
        return self.question


def _format_argument(argument: Any) -> str:
    if isinstance(argument, np.generic) and argument.dtype.kind in "iuf":
        return format_number(float(argument))
    if isinstance(argument, np.ndarray) and argument.size > 6:
        return f"<array of shape {argument.shape}>"
    return short_repr(argument, 50)


def _format_args(case: tuple[Any, ...]) -> str:
    inside = ", ".join(_format_argument(argument) for argument in case)
    return f"({inside},)" if len(case) == 1 else f"({inside})"


@dataclass
class _Call:
    """What one call of the learner's function did."""

    value: Any = None
    error: BaseException | None = None
    printed: str = ""
    warned: str = ""

    def extra(self) -> str:
        notes = []
        if self.printed.strip():
            notes.append(f"It printed {short_repr(self.printed.strip(), 80)}.")
        if self.warned:
            notes.append(f"It warned: {self.warned}.")
        return (" " + " ".join(notes)) if notes else ""


def _call_learner(function: Callable[..., Any], case: tuple[Any, ...]) -> _Call:
    """Call ``function`` on fresh copies of ``case``, catching what it raises, prints and warns."""
    sink = io.StringIO()
    call = _Call()
    with (
        warnings.catch_warnings(record=True) as caught,
        np.errstate(all="warn"),
        redirect_stdout(sink),
        redirect_stderr(sink),
    ):
        warnings.simplefilter("always")
        arguments = copy.deepcopy(case)
        try:
            call.value = function(*arguments)
        except (Exception, SystemExit) as error:  # the learner's code may fail in any way
            call.error = error
    call.printed = sink.getvalue()
    if caught:
        first = caught[0]
        call.warned = f"{first.category.__name__}: {short_repr(str(first.message), 80)}"
    return call


def _error_text(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:
        text = ""
    text = " ".join(text.split())
    text = text if len(text) <= 160 else text[:159] + "…"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _holds_array(case: tuple[Any, ...]) -> bool:
    return any(isinstance(argument, np.ndarray) and argument.size > 1 for argument in case)


# Said when a function ran on cases of single numbers, then failed on one holding an array.
_ARRAY_ADVICE = (
    " It ran on the single numbers of the earlier cases, so it probably uses something that takes "
    "one number at a time (math.…, float(…), an `if` on the value), and the question asks for "
    "arrays too: NumPy's functions (np.…, np.where) work on every entry of an array at once."
)


class FunctionExercise(Exercise):
    """An exercise whose answer is a function, checked on fixed test inputs.

    ``reference`` is the correct function; ``cases`` the argument tuples it
    is called with (each call gets its own deep copy); each mistake is a wrong
    function and its explanation. ``rtol``/``atol`` apply to every result.
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
        self.cases = cases
        self._function_mistakes = tuple(mistakes)

    @property
    def cases(self) -> tuple[tuple[Any, ...], ...]:
        """The argument tuples (a copy: changing it changes nothing in the checker)."""
        return copy.deepcopy(self._cases)

    @cases.setter
    def cases(self, cases: Sequence[tuple[Any, ...]]) -> None:
        self._cases = copy.deepcopy(tuple(tuple(case) for case in cases))
        self._resolved = {}

    def _reference_targets(self) -> list[Target]:
        return self._cached(
            "reference", lambda: [_as_target(self.reference(*copy.deepcopy(case))) for case in self._cases]
        )

    def _mistake_results(self) -> list[tuple[list[Target] | None, str]]:
        def results(wrong: Callable[..., Any]) -> list[Target] | None:
            try:
                return [_as_target(wrong(*copy.deepcopy(case))) for case in self._cases]
            except Exception:  # a typical mistake that cannot run on some case never matches
                return None

        return self._cached(
            "function mistakes", lambda: [(results(wrong), text) for wrong, text in self._function_mistakes]
        )

    def _check(self, answer: Any) -> CheckResult:
        if not is_function_like(answer):
            what, _ = describe(answer)
            return CheckResult(
                False,
                f"Expected a function, got {what}. Define it with def name(…): … return …, then give "
                "the function itself, without calling it: answer = name (no parentheses).",
            )
        calls = []
        for case in self._cases:
            call = _call_learner(answer, case)
            if call.error is not None:
                ran_on_numbers = any(not _holds_array(done) for done in self._cases[: len(calls)])
                return CheckResult(
                    False,
                    f"Your function raised {_error_text(call.error)} on arguments {_format_args(case)}."
                    f"{_ARRAY_ADVICE if ran_on_numbers and _holds_array(case) else ''}{call.extra()}",
                )
            calls.append(call)
        targets = self._reference_targets()
        rules = _Rules(self.rtol, self.atol)
        budget = _budget(targets)
        reads = []
        for case, call, target in zip(self._cases, calls, targets, strict=True):
            if call.value is None:
                return CheckResult(
                    False,
                    f"Your function returned None on arguments {_format_args(case)}: did you forget "
                    "`return`? (Changing the input in place is not enough: return the result.)"
                    f"{call.extra()}",
                )
            read = _read(call.value, target, budget)
            if isinstance(read, Refusal):
                return CheckResult(
                    False,
                    f"Not quite: on arguments {_format_args(case)} your function did not return "
                    f"what was asked. {_unprefixed(_refusal_message(read, target, rules, call.value))}"
                    f"{call.extra()}",
                )
            reads.append(read)
        if all(_matches(read, target, rules) for read, target in zip(reads, targets, strict=True)):
            return CheckResult(True, CORRECT)
        for results, explanation in self._mistake_results():
            if results is not None and all(
                _matches(read, wrong, rules) for read, wrong in zip(reads, results, strict=True)
            ):
                return CheckResult(False, f"Not quite. {explanation}")
        for case, call, read, target in zip(self._cases, calls, reads, targets, strict=True):
            if not _matches(read, target, rules):
                difference = _unprefixed(_difference(call.value, read, target, rules, "its result"))
                return CheckResult(
                    False,
                    f"Not quite: wrong result for arguments {_format_args(case)}. {difference}{call.extra()}",
                )
        return CheckResult(False, "Not quite: some result differs from the reference; try hint().")


__all__ = ["CORRECT", "NOT_ATTEMPTED", "PLACEHOLDER", "CheckResult", "Exercise", "FunctionExercise"]
