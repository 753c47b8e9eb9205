"""No answer a learner can type breaks a checker: proved over every exercise, found by itself.

``discover_exercises`` walks ``pe_utils.exercises``, so a new exercise is
covered here without a new test. Three kinds are told apart by the reference:
a number or an array (``expected`` numeric), a word (``expected`` a str), a
function (``FunctionExercise``). For each exercise:

* the reference (``expected`` / ``reference``) passes, and so does the answer
  that the printed ``solution()`` code defines on its ``answer = …`` line;
* each typical mistake gets its own explanation;
* a broad set of malformed answers of its kind never raises, prints or warns,
  and gets a falsy result with a message that says something (no traceback,
  no bare "Not quite.");
* a learner function that changes its arguments in place cannot change the
  checker (cases, reference, mistakes);
* every numeric question states the form of its answer (a whole number, rounded
  to k decimals or significant digits, or the exact value), and the checker
  accepts exactly that: the value rounded as asked passes, one unit off in the
  last digit asked fails, fewer digits are told what the question asks for.
"""

import decimal
import fractions
import itertools
import math
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pe_utils.exercises import NOT_ATTEMPTED, CheckResult, Exercise, FunctionExercise
from tests.exercise_contract import ANSWER_LINE, discover_exercises, run_solution

EXERCISES = discover_exercises()


def _kind(exercise: Exercise) -> str:
    if isinstance(exercise, FunctionExercise):
        return "function"
    if isinstance(exercise.expected, bool | np.bool_):
        return "boolean"
    return "word" if isinstance(exercise.expected, str) else "number"


def _of_kind(kind: str) -> dict[str, Exercise]:
    return {name: exercise for name, exercise in EXERCISES.items() if _kind(exercise) == kind}


def _params(exercises: dict[str, Exercise]):
    return pytest.mark.parametrize("exercise", list(exercises.values()), ids=list(exercises))


ALL = _params(EXERCISES)
NUMBERS = _of_kind("number")
WORDS = _of_kind("word")
FUNCTIONS = _of_kind("function")
BOOLEANS = _of_kind("boolean")  # none today; the checker supports True/False questions
SCALARS = {name: ex for name, ex in NUMBERS.items() if np.ndim(ex.expected) == 0}
ARRAYS = {name: ex for name, ex in NUMBERS.items() if np.ndim(ex.expected) > 0}


def test_every_kind_is_present():
    # If a kind disappears, its parametrized tests below would silently test nothing.
    assert SCALARS and ARRAYS and WORDS and FUNCTIONS
    assert len(EXERCISES) == len(NUMBERS) + len(WORDS) + len(FUNCTIONS) + len(BOOLEANS)


def judge(exercise: Exercise, answer, capfd) -> CheckResult:
    """``check(answer)``, asserting it raised nothing, printed nothing and warned nothing."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = exercise.check(answer)
    out, err = capfd.readouterr()
    assert isinstance(result, CheckResult)
    assert (out, err) == ("", ""), f"check printed for {shown(answer)}"
    assert not caught, f"check warned for {shown(answer)}: {caught[0].message}"
    return result


def shown(answer) -> str:
    try:
        return f"{type(answer).__name__} {answer!r:.60}"
    except Exception:  # Hostile's repr fails, on purpose
        return type(answer).__name__


def assert_useful_refusal(result: CheckResult, answer) -> None:
    shown_answer = shown(answer)
    message = result.message
    assert not result, f"accepted {shown_answer}"
    assert message.strip(), f"empty message for {shown_answer}"
    assert "Traceback" not in message and "could not judge" not in message, f"{shown_answer}: {message}"
    assert message.strip() not in ("Not quite.", "Not quite"), f"bare message for {shown_answer}"
    assert message != NOT_ATTEMPTED, f"{shown_answer}: {message}"


# --- the reference, the printed solution and the typical mistakes -------------------


@ALL
def test_reference_answer_passes(exercise, capfd):
    reference = exercise.reference if isinstance(exercise, FunctionExercise) else exercise.expected
    result = judge(exercise, reference, capfd)
    assert result, result.message


@ALL
def test_solution_has_an_answer_line(exercise):
    assert ANSWER_LINE.search(exercise._solution), "solution() prints no `answer = …` line"


@ALL
def test_printed_solution_passes(exercise, capfd):
    if not ANSWER_LINE.search(exercise._solution):
        pytest.fail("solution() defines no `answer`, so a learner cannot run it as printed")
    answer = run_solution(exercise)
    capfd.readouterr()  # the solution code may print
    result = judge(exercise, answer, capfd)
    assert result, result.message


def _mistakes(exercise: Exercise):
    if isinstance(exercise, FunctionExercise):
        return list(exercise._function_mistakes)
    return [(wrong() if callable(wrong) else wrong, text) for wrong, text in exercise._mistakes]


@ALL
def test_each_typical_mistake_gets_its_explanation(exercise, capfd):
    for wrong, explanation in _mistakes(exercise):
        result = judge(exercise, wrong, capfd)
        assert not result, f"mistake accepted: {explanation}"
        assert explanation in result.message, f"{explanation!r} shadowed by {result.message!r}"


# --- malformed answers ---------------------------------------------------------------


class Hostile:
    """An object every one of whose conversions fails."""

    shape = (3,)

    def __array__(self, *args, **kwargs):
        raise ValueError("no array")

    def __float__(self):
        raise ValueError("no float")

    def __len__(self):
        raise RuntimeError("no len")

    def __repr__(self):
        raise RuntimeError("no repr")

    def __eq__(self, other):
        raise RuntimeError("no eq")

    __hash__ = object.__hash__


def _self_containing_list():
    items = [1.0]
    items.append(items)
    return items


def _nested(depth: int):
    value = 1.0
    for _ in range(depth):
        value = [value]
    return value


def anything_but_a_number(expected_shape: tuple[int, ...]) -> list:
    """Answers that are not real numbers, or not of the expected shape, or absurd."""
    wrong_shape = np.zeros(expected_shape + (2,))
    return [
        "4",
        " -2 ",
        "six",
        "",
        "[4, 3]",
        b"4",
        np.str_("4"),
        3 + 0j,
        2 + 1j,
        np.complex128(1),
        np.complex64(1 + 1j),
        True,
        False,
        np.bool_(True),
        np.bool_(False),
        None,
        [...],
        [None],
        [],
        [1],
        [1, 2],
        (1, 2),
        [[1, 2], [3]],
        [[1, 2], 3],
        [1, "2"],
        ["4"] * 3,
        [True, False],
        {},
        {"a": 1},
        {1, 2},
        frozenset(),
        np.array(["4"]),
        np.array([1, "a"], dtype=object),
        np.array([None]),
        np.array([1 + 2j]),
        np.array([True]),
        np.array(1 + 0j),
        np.array("4"),
        np.array([np.datetime64("2020")]),
        np.datetime64("2020"),
        np.zeros((2, 3, 4)),
        wrong_shape,
        np.ma.array([1.0, 2.0], mask=[0, 1]),
        np.ma.masked,
        np.zeros(0),
        np.empty((0, 3)),
        object(),
        Hostile(),
        [Hostile()],
        int,
        np.ndarray,
        np,
        math,
        print,
        lambda: 4,
        (value for value in range(3)),
        iter([1.0]),
        itertools.count(),
        range(10**9),
        range(10**100),
        np.broadcast_to(1.0, (10**9,)),
        _self_containing_list(),
        _nested(200),
        10**400,
        -(10**400),
        [10**400, 1],
        np.longdouble("1e4000"),
        np.longdouble("-1e4000"),
        float("nan"),
        float("inf"),
        -float("inf"),
        np.float64("nan"),
        np.float16("inf"),
        [float("nan")],
        decimal.Decimal("sNaN"),
        decimal.Decimal("NaN"),
    ]


def wrong_real_values(expected) -> list:
    expected = np.asarray(expected, dtype=np.float64)
    return [expected * 1.37 + 0.5, -expected - 1.0, expected * 1000 + 77.7, np.full(expected.shape, 0.123)]


@_params(NUMBERS)
def test_numbers_survive_any_answer(exercise, capfd):
    answers = anything_but_a_number(np.shape(exercise.expected))
    answers += wrong_real_values(exercise.expected) + [fractions.Fraction(1, 7) + 10**6]
    for answer in answers:
        assert_useful_refusal(judge(exercise, answer, capfd), answer)


@_params(NUMBERS)
def test_numbers_refuse_text_saying_what_was_expected(exercise, capfd):
    result = judge(exercise, "4", capfd)
    assert "Expected" in result.message and "without quotes" in result.message
    for answer in (1 + 0j, np.complex128(2), True, np.bool_(False), None):
        message = judge(exercise, answer, capfd).message
        assert message.startswith("Expected"), message


@_params({**WORDS, **BOOLEANS})
def test_words_and_booleans_survive_any_answer(exercise, capfd):
    word = str(exercise.expected)
    answers = anything_but_a_number(()) + [4, 4.0, np.float64(2), [word], (word,), {word}, np.array([word])]
    answers += [word.encode(), "xyz", "   ", word + " and more", word[::-1], not exercise.expected]
    for answer in answers:
        if isinstance(exercise.expected, str) and isinstance(answer, bool):
            continue  # ``not word`` is False: already among the answers above
        result = judge(exercise, answer, capfd)
        assert_useful_refusal(result, answer)
        if isinstance(exercise.expected, str) and not isinstance(answer, str):
            assert "as text in quotes" in result.message, result.message


@_params(WORDS)
def test_words_give_word_advice_to_any_answer(exercise, capfd):
    for answer in ({"a": 1}, 1 + 2j, ValueError("x"), (letter for letter in "ab"), None, [1, 2], {"x"}):
        message = judge(exercise, answer, capfd).message
        for number_advice in ("give the number", "real number", "list(...)", "give a number", "an array"):
            assert number_advice not in message, f"{answer!r}: {message}"
        assert "between quotes" in message or "in quotes" in message, message


@_params(SCALARS)
def test_a_low_precision_answer_is_judged_by_the_value_it_holds(exercise, capfd):
    expected = float(exercise.expected)
    for dtype in (np.float16, np.float32):
        answer = dtype(expected)
        holds = float(answer)
        # Read as the decimal it prints as (what the learner sees), it passes only if the value
        # it holds passes too: np.float16(0.1) is not an exact 0.1.
        if judge(exercise, answer, capfd):
            assert judge(exercise, holds, capfd), f"{answer!r} passes, but the float it holds, {holds!r}, not"


@_params(WORDS)
def test_words_ignore_case_and_spaces(exercise, capfd):
    word = exercise.expected
    for variant in (word.upper(), f"  {word.title()}  ", f" {word}\n"):
        assert judge(exercise, variant, capfd)


def _raises(error):
    def function(*args):
        raise error

    return function


def _noisy(*args):
    print("debugging", len(args))
    print("to stderr", file=sys.stderr)
    warnings.warn("a learner's warning", UserWarning, stacklevel=1)
    return np.log(np.zeros(2))


def _in_place_only(*args):
    for argument in args:
        if isinstance(argument, np.ndarray):
            argument[...] = 0
        elif isinstance(argument, list):
            argument.reverse()


def not_a_working_function() -> list:
    """Non-functions, and functions that fail or return what is not a real result."""
    return [
        4,
        2.5,
        "f",
        "lambda x: x",
        None,
        [lambda x: x],
        np.zeros(3),
        int,
        np.ndarray,
        math,
        object(),
        math.atan2,
        math.sqrt,
        math.floor,
        abs,
        len,
        sorted,
        print,
        lambda: 0,
        lambda a, b, c, d, e, f, g: 0,
        lambda *a: None,
        _in_place_only,
        lambda *a: "4",
        lambda *a: ["1", "2"],
        lambda *a: 1 + 2j,
        lambda *a: np.complex128(1),
        lambda *a: np.ones(3) * 1j,
        lambda *a: True,
        lambda *a: np.bool_(False),
        lambda *a: np.array([True, False]),
        lambda *a: [1, [2, 3]],
        lambda *a: {},
        lambda *a: {1},
        lambda *a: 10**400,
        lambda *a: np.broadcast_to(1.0, (10**9,)),
        lambda *a: range(10**9),
        lambda *a: (x for x in a),
        lambda *a: itertools.count(),
        lambda *a: Hostile(),
        lambda *a: np.nan,
        lambda *a: lambda: 0,
        lambda *a: np.ma.masked,
        lambda *a: a,
        _raises(ZeroDivisionError("boom")),
        _raises(SystemExit(3)),
        _raises(SystemExit()),
        _raises(RecursionError()),
        _raises(MemoryError()),
        _raises(Exception()),
        _noisy,
    ]


@_params(FUNCTIONS)
def test_functions_survive_any_answer(exercise, capfd):
    for answer in not_a_working_function():
        assert_useful_refusal(judge(exercise, answer, capfd), answer)


@_params(FUNCTIONS)
def test_functions_errors_are_the_learners(exercise, capfd):
    assert "Your function raised SystemExit" in judge(exercise, _raises(SystemExit(3)), capfd).message
    message = judge(exercise, _raises(ZeroDivisionError("boom")), capfd).message
    assert "Your function raised ZeroDivisionError: boom on arguments" in message
    assert "forget `return`" in judge(exercise, _in_place_only, capfd).message
    assert "Expected a function" in judge(exercise, int, capfd).message


def test_a_function_that_runs_on_numbers_but_not_on_arrays_is_told_to_take_arrays(capfd):
    # math.sqrt takes one number at a time: it runs on the scalar cases, then raises on the array.
    advice = "the question asks for arrays too"
    scalar_then_array = FunctionExercise(
        "Write root(x) returning the square root of x (a number or an array).",
        np.sqrt,
        cases=[(0.25,), (4.0,), (np.array([1.0, 9.0]),)],
        hint="np.sqrt.",
        solution="answer = np.sqrt",
    )
    message = judge(scalar_then_array, math.sqrt, capfd).message
    assert message.startswith("Your function raised TypeError") and advice in message
    assert "np.where" in message and "math." in message
    assert judge(scalar_then_array, np.sqrt, capfd)
    # No such advice when it failed on a number, or when no case of single numbers ran first.
    assert advice not in judge(scalar_then_array, _raises(ZeroDivisionError("boom")), capfd).message
    arrays_only = FunctionExercise(
        "Write root(x) returning the square roots of an array x.",
        np.sqrt,
        cases=[(np.array([1.0, 9.0]),), (np.array([4.0, 16.0]),)],
        hint="np.sqrt.",
        solution="answer = np.sqrt",
    )
    message = judge(arrays_only, math.sqrt, capfd).message
    assert message.startswith("Your function raised TypeError") and advice not in message


# --- a learner's function cannot change the checker ------------------------------------


def _mutate_everything(*args):
    for argument in args:
        if isinstance(argument, np.ndarray) and argument.flags.writeable:
            argument[...] = 7
        elif isinstance(argument, list):
            argument.reverse()
            argument.append(99)
        elif isinstance(argument, dict):
            argument.clear()
    return "garbage"


def _same(a, b) -> bool:
    if isinstance(a, tuple | list):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and np.array_equal(a, b)
    return a == b


@_params(FUNCTIONS)
def test_mutating_function_cannot_change_the_checker(exercise, capfd):
    cases_before = exercise.cases
    for _ in range(2):
        assert not judge(exercise, _mutate_everything, capfd)
    assert _same(exercise.cases, cases_before)
    assert judge(exercise, exercise.reference, capfd)
    for wrong, explanation in exercise._function_mistakes[:1]:
        assert explanation in judge(exercise, wrong, capfd).message
    handed_out = exercise.cases  # a copy: changing it changes nothing
    _mutate_everything(*handed_out[0])
    assert _same(exercise.cases, cases_before)


@_params(NUMBERS)
def test_changing_expected_changes_nothing(exercise, capfd):
    handed_out = exercise.expected
    if isinstance(handed_out, np.ndarray):
        handed_out[...] = 7
    assert judge(exercise, exercise.expected, capfd)


# --- digits: the question states the form, the checker accepts exactly that ----------------
#
# Every numeric answer is a whole number (exact or wrong), a value rounded as asked
# (``decimals=k`` / ``significant=k``: right when within half a unit of the k-th decimal or
# significant digit), or an exact short decimal. The question (and the notebook's text of the
# exercise, tests/exercises/test_questions.py) says which; ``answer_form`` gives the phrase.

WHOLE = {name: ex for name, ex in NUMBERS.items() if ex.answer_form == "a whole number"}
EXACT = {name: ex for name, ex in NUMBERS.items() if ex.answer_form == "the exact value"}
ROUNDED = {name: ex for name, ex in NUMBERS.items() if name not in WHOLE and name not in EXACT}

#: Words a question may use for each form (a rounded form's phrase is its own: "to 4 decimals").
FORM_WORDS = {"a whole number": ("whole number", "integer"), "the exact value": ("exact value",)}


def form_words(exercise: Exercise) -> tuple[str, ...]:
    return FORM_WORDS.get(exercise.answer_form, (exercise.answer_form,))


def unit_asked(exercise: Exercise) -> np.ndarray:
    """One unit of the last digit the question asks for, per entry."""
    expected = np.asarray(exercise.expected, dtype=np.float64)
    if exercise.decimals is not None:
        return np.full(expected.shape, 10.0**-exercise.decimals)
    magnitude = np.floor(np.log10(np.abs(expected)))
    return 10.0 ** (magnitude - exercise.significant + 1)


def rounded_as_asked(exercise: Exercise, fewer: int = 0) -> np.ndarray:
    """The expected value rounded to the digits asked for, or to ``fewer`` digits less."""
    expected = np.asarray(exercise.expected, dtype=np.float64)
    if exercise.decimals is not None:
        return np.round(expected, exercise.decimals - fewer)
    return np.vectorize(lambda value: float(f"{value:.{exercise.significant - fewer - 1}e}"))(expected)


def test_every_form_is_present():
    assert WHOLE and EXACT and ROUNDED
    assert any(ex.decimals is not None for ex in ROUNDED.values())
    assert any(ex.significant is not None for ex in ROUNDED.values())


@_params(NUMBERS)
def test_the_question_states_the_form_of_the_answer(exercise):
    assert any(word in exercise.question for word in form_words(exercise)), (
        f"the question must say {' or '.join(map(repr, form_words(exercise)))}: {exercise.question}"
    )


@_params(ROUNDED)
def test_rounded_as_asked_passes_and_one_unit_off_does_not(exercise, capfd):
    rounded = rounded_as_asked(exercise)
    assert judge(exercise, rounded.tolist(), capfd), f"{rounded} refused"
    expected = np.asarray(exercise.expected, dtype=np.float64)
    for sign in (+1, -1):
        off = expected + sign * 1.0 * unit_asked(exercise)  # wrong in the last digit asked for
        result = judge(exercise, off.tolist(), capfd)
        assert not result, f"{off} accepted: the tolerance is looser than {exercise.answer_form}"
        assert exercise.answer_form in result.message or "Not quite" in result.message, result.message
        # The rule is half a unit: a checker loosened to 0.95 of a unit must fail here too.
        off = expected + sign * 0.6 * unit_asked(exercise)
        assert not judge(exercise, off.tolist(), capfd), (
            f"{off}, 0.6 of a unit off, accepted: the tolerance is looser than {exercise.answer_form}"
        )


@_params(ROUNDED)
@pytest.mark.parametrize("fewer", [1, 2])
def test_fewer_digits_than_asked_are_told_what_was_asked(exercise, fewer, capfd):
    shorter = rounded_as_asked(exercise, fewer)
    if exercise.significant is not None and exercise.significant - fewer < 2:
        return  # a single significant digit is too few to call close
    if exercise.decimals is not None and exercise.decimals - fewer < 1:
        return
    result = judge(exercise, shorter.tolist(), capfd)
    if result:  # the shorter value happens to be within half a unit (e.g. 2.40 for 2.4)
        return
    assert f"asks for the answer {exercise.answer_form}" in result.message or any(
        explanation in result.message for _, explanation in _mistakes(exercise)
    ), f"{shorter}: {result.message}"


@_params(WHOLE)
def test_whole_numbers_are_exact_or_wrong(exercise, capfd):
    expected = np.asarray(exercise.expected, dtype=np.float64)
    assert judge(exercise, expected.astype(np.int64).tolist(), capfd)
    for delta in (1, -1):
        result = judge(exercise, (expected + delta).tolist(), capfd)
        assert not result and not result.message.startswith("Close"), result.message
    rounded = np.vectorize(lambda value: float(f"{value:.1e}"))(expected)
    if not np.array_equal(rounded, expected):  # 1000 for 1024 is wrong, never "close"
        assert not judge(exercise, rounded.tolist(), capfd).message.startswith("Close")


@_params(EXACT)
def test_exact_values_need_all_their_digits(exercise, capfd):
    expected = np.asarray(exercise.expected, dtype=np.float64)
    assert exercise.rtol <= 1e-9 and exercise.atol <= 1e-12, "an exact value needs a tight tolerance"
    assert judge(exercise, float(repr(float(expected))) if expected.ndim == 0 else expected.tolist(), capfd)
    off = expected * (1 + 1e-4)
    assert not judge(exercise, off.tolist(), capfd)


@_params(SCALARS)
def test_exact_value_in_other_real_types_passes(exercise, capfd):
    expected = float(exercise.expected)
    for answer in (np.float64(expected), np.array(expected), np.longdouble(expected)):
        assert judge(exercise, answer, capfd)
    if expected == int(expected):
        assert judge(exercise, int(expected), capfd)
        assert judge(exercise, np.int64(int(expected)), capfd)


def test_a_number_a_learner_types_is_shown_as_typed():
    # 1.000001e-4 must not be shown as "0.0001", the expected value's own rounding.
    exercise = Exercise(
        "ω? Give its exact value.", 1e-4, hint="h", solution="answer = 1e-4", rtol=1e-9, atol=0
    )
    assert "0.0001000001 is not the right value" in exercise.check(1.000001e-4).message


# --- anything at all, drawn at random ------------------------------------------------------

_leaves = st.one_of(
    st.integers(min_value=-(10**500), max_value=10**500),
    st.floats(allow_nan=True, allow_infinity=True),
    st.complex_numbers(),
    st.text(max_size=5),
    st.binary(max_size=3),
    st.booleans(),
    st.none(),
    st.just(Ellipsis),
    st.floats(width=32).map(np.float32),
    st.integers(-(2**63), 2**63 - 1).map(np.int64),
    st.booleans().map(np.bool_),
    st.complex_numbers(allow_nan=False, allow_infinity=False).map(np.complex128),
)
_values = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=5).map(tuple),
        st.dictionaries(st.text(max_size=2), inner, max_size=2),
        st.lists(st.floats(), min_size=1, max_size=6).map(np.array),
        st.lists(inner, min_size=1, max_size=4).map(lambda items: np.array(items + [None], dtype=object)),
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(NUMBERS) + sorted(WORDS)), answer=_values)
def test_random_answers_never_break_a_checker(name, answer):
    exercise = EXERCISES[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = exercise.check(answer)
    assert isinstance(result, CheckResult) and not caught
    assert result.message.strip() and "could not judge" not in result.message
