"""The exercise machinery that every "Check yourself" section relies on."""

import itertools
import math
import sys
import warnings

import numpy as np
import pytest

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


# --- what no answer may break (the generic version is tests/exercises/test_every_exercise.py) -------


def test_text_is_refused_and_told_to_drop_the_quotes():
    four = Exercise("2 + 2?", 4, hint="h", solution="answer = 4")
    assert four.check(4) and four.check(4.0) and four.check(np.int64(4))
    assert repr(four.check("4")) == "Expected a number, got text '4': write 4 without quotes."
    result = four.check(" -2 ")
    assert not result and "write -2 without quotes" in result.message


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (2 * math.pi + 0j, "complex number"),
        (np.complex128(2 * math.pi), "complex number"),
        (True, "boolean"),
        (np.bool_(True), "boolean"),
        (None, "got None"),
        ({"a": 1}, "dict"),
        ({6.28}, "set"),
        (print, "function"),
        (math, "module"),
        (float, "class"),
        ((x for x in [2 * math.pi]), "generator"),
    ],
)
def test_what_is_not_a_real_number_is_refused_by_name(answer, phrase):
    result = wavelength.check(answer)  # pytest turns any warning (a ComplexWarning) into an error
    assert not result
    assert phrase in result.message and result.message.startswith("Expected")
    assert "NaN" not in result.message


ROWS = Exercise("A row?", np.arange(4.0), hint="h", solution="answer = np.arange(4.0)")


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (np.ma.array(np.arange(4.0), mask=[0, 1, 0, 0]), "masked array with 1 masked entry"),
        ([[0.0, 1.0], [2.0]], "ragged"),
        (np.array(["0", "1", "2", "3"]), "of text"),
        ([0, 1, "2", 3], "item [2] is text '2': write 2 without quotes"),
        ([0, 1, 2, None], "item [3] is None"),
        (np.arange(4) > 1, "booleans"),
        (np.arange(4.0) + 0j, "complex"),
    ],
)
def test_arrays_with_what_is_not_a_real_number_are_refused_by_name(answer, phrase):
    result = ROWS.check(answer)
    assert not result and phrase in result.message, result.message
    assert ROWS.check(np.ma.array(np.arange(4.0)))  # a masked array with nothing masked is plain


def test_absurd_answers_are_refused_without_being_read():
    for answer in (10**400, -(10**400), [10**400]):
        assert "401 digits" in wavelength.check(answer).message
    assert "1000000000 items" in wavelength.check(range(10**9)).message
    assert "(1000000000,)" in wavelength.check(np.broadcast_to(1.0, (10**9,))).message
    assert "iterator" in wavelength.check(itertools.count()).message


def test_scalar_messages_fit_scalars_and_shapes_are_named():
    message = wavelength.check(7.0).message
    assert "7 is not the right value" in message and "shape" not in message
    assert "Expected shape (4,), got a list of shape (3,)" in ROWS.check([0, 1, 2]).message
    assert "some values" in ROWS.check([0, 1, 2, 4]).message
    assert "single number" in ROWS.check(3.0).message


# --- digits --------------------------------------------------------------------------


def test_answer_right_to_its_digits_is_told_to_give_more():
    for answer in (6.28, 6.3, 6.283, 6.2832):
        result = wavelength.check(answer)
        assert not result and result.message.startswith("Close: right to the digits you gave"), answer
    for answer in (6.2, 6.0, 6, 7):  # wrong in a digit it shows, or a single digit
        assert "not the right value" in wavelength.check(answer).message, answer
    period = Exercise("Period of bit 9?", 1024, hint="h", solution="answer = 1024")
    # A whole number for a whole-number answer is exact or wrong: 1000 is not "1024 to 1 digit".
    for answer in (1000, 1000.0, 1100, 1020):
        assert "not the right value" in period.check(answer).message, answer
    assert period.check(1024) and period.check(1024.0)


def test_decimals_and_significant_digits_accept_exactly_what_they_ask():
    # "Correct to k decimals / significant digits": within half a unit of the k-th digit.
    angle = Exercise(
        "Angle? Give it to 1 decimal.", 35.26438968, hint="h", solution="answer = 35.3", decimals=1
    )
    assert angle.answer_form == "to 1 decimal"
    assert angle.check(35.3) and angle.check(35.26) and angle.check(35.2644)
    assert not angle.check(35.2) and not angle.check(35.4)
    assert "round to the nearest" in angle.check(35.2).message.lower()
    factor = Exercise(
        "m²? Give it to 4 significant digits.", 1.6313902, hint="h", solution="answer = 1.631", significant=4
    )
    assert factor.answer_form == "to 4 significant digits"
    assert factor.check(1.631) and factor.check(1.6314) and factor.check(1.63139)
    assert not factor.check(1.632)  # 6.1e-4 away: more than half a unit of the 4th digit
    assert factor.check(1.6317)  # 3.1e-4 away: correct to 4 significant digits, if wrong in the 5th
    message = factor.check(1.63).message
    assert message.startswith("Close: right to the digits you gave") and "to 4 significant digits" in message
    with pytest.raises(ValueError, match="at most one"):
        Exercise("?", 1.5, hint="h", solution="s", decimals=1, significant=2)
    with pytest.raises(ValueError, match="decimals"):
        Exercise("?", 1.5, hint="h", solution="s", decimals=-1)


def test_whole_and_exact_forms():
    period = Exercise("Period? Give a whole number.", 1024, hint="h", solution="answer = 1024")
    assert period.answer_form == "a whole number"
    spacing = Exercise("Gap? Give its exact value.", 0.0625, hint="h", solution="answer = 0.0625")
    assert spacing.answer_form == "the exact value"
    assert spacing.check(0.0625) and not spacing.check(0.06251)
    assert "exact value" in spacing.check(0.063).message
    assert Exercise("?", "word", hint="h", solution="s").answer_form is None


def test_text_holding_several_numbers_is_told_to_write_a_list():
    message = ROWS.check("0 1 2 3").message
    assert "write the numbers as a list, without quotes: [0, 1, 2, 3]" in message, message
    message = wavelength.check("6.28, 3").message
    assert "single number" in message and "the number itself" not in message, message


def test_a_rounded_typical_mistake_still_gets_its_explanation():
    pi = Exercise("π?", math.pi, hint="h", solution="answer = np.pi", mistakes=[(math.e, "That is e.")])
    assert "That is e." in pi.check(2.718).message
    assert pi.check(3.14).message.startswith("Close")


def test_words_name_the_choices_for_anything_else():
    word = Exercise(
        "Which?", "invariant", hint="h", solution="answer = 'invariant'", choices=["equivariant", "invariant"]
    )
    assert word.check("'Invariant'.")
    message = word.check(1).message
    assert "'equivariant' or 'invariant'" in message and "as text in quotes" in message
    assert "not one of the words" in word.check("both").message
    assert "not the right word" in word.check("equivariant").message
    assert "a word, as text in quotes" in Exercise("?", "yes", hint="h", solution="s").check(1).message


# --- functions -------------------------------------------------------------------------


def test_function_gets_fresh_copies_and_in_place_changes_do_not_leak():
    def square_in_place(x):
        x *= x  # changes an array argument in place (a float is rebound, not changed)
        return x

    assert square.check(square_in_place)
    assert square.check(square_in_place)  # the cases were not squared by the first check
    np.testing.assert_array_equal(square.cases[0][0], np.arange(4.0))
    square.cases[0][0][:] = 99  # what ``cases`` hands out is a copy
    assert square.check(lambda x: x * x)


def test_function_returning_none_is_asked_about_return():
    def square_without_return(x):
        x *= x

    message = square.check(square_without_return).message
    assert "returned None" in message and "forget `return`" in message
    assert "unchanged" not in message


@pytest.mark.parametrize(
    ("function", "phrase"),
    [
        (lambda x: math.sqrt(x), "Your function raised TypeError"),
        (lambda x: sys.exit(1), "Your function raised SystemExit"),
        (lambda x, y: x, "Your function raised TypeError"),
        (lambda x: x * 1j, "complex"),
        (lambda x: str(x), "text"),
        (lambda x: x > 0, "boolean"),
        (lambda x: x[:-1] if np.ndim(x) else x**2, "Expected shape (4,), got an array of shape (3,)"),
        (lambda x: x**2 + 1, "wrong result for arguments"),
        (float, "Expected a function, got the class float"),
    ],
)
def test_function_failures_are_reported_as_the_learners(function, phrase, capfd):
    result = square.check(function)
    assert not result and phrase in result.message
    assert capfd.readouterr() == ("", "")


def test_function_prints_and_warnings_stay_out_of_the_output(capfd):
    def noisy(x):
        print("debug", x)
        warnings.warn("careful", UserWarning, stacklevel=1)
        return x**2 + 1

    result = square.check(noisy)
    assert "It printed" in result.message and "It warned: UserWarning: 'careful'" in result.message
    assert capfd.readouterr() == ("", "")
    assert square.check(lambda x: (print("fine"), x**2)[1])
    assert capfd.readouterr() == ("", "")


def test_true_or_false_questions():
    question = Exercise("Is 7 prime?", True, hint="h", solution="answer = True")
    assert question.check(True) and question.check(np.bool_(True))
    assert "write True without quotes" in question.check("True").message
    assert "True or False" in question.check(1).message
    assert not question.check(False)


def test_one_unit_off_is_told_why_it_is_off():
    factor = Exercise(
        "m²? Give it to 4 significant digits.", 1.6313902, hint="h", solution="answer = 1.631", significant=4
    )
    # 1.632: the digits asked for, last one off (e.g. m rounded before squaring), not a cut-off value.
    assert "Round only the final value" in factor.check(1.632).message
    assert "cut the digits off" not in factor.check(1.632).message
    # 1.6304: more digits than asked, off by more than half a unit of the 4th.
    assert "more than half a unit" in factor.check(1.6304).message
    # 0.2213 for 0.22136: the value cut off after 4 decimals.
    angle = Exercise("θ? Give it to 4 decimals.", 0.2213594, hint="h", solution="answer = 0.2214", decimals=4)
    assert "cut the digits off" in angle.check(0.2213).message


def test_brackets_and_decimal_commas_for_one_number():
    seven = Exercise("k? Give an integer.", 7, hint="h", solution="answer = 7")
    assert "write 7, without quotes or brackets" in seven.check("[7]").message
    assert "without brackets" in seven.check([7]).message
    two_point_four = Exercise(
        "Divisor? Give its exact value.", 2.4, hint="h", solution="answer = 2.4", rtol=1e-9, atol=0.0
    )
    assert "write a decimal with a point, 2.4" in two_point_four.check((2, 4)).message


def test_whole_numbers_are_exact_and_rounded_entries_are_not_counted_wrong():
    period = Exercise("Period? Give a whole number.", 1024, hint="h", solution="answer = 1024")
    assert not period.check(1024.0001) and "whole number" in period.check(1024.0001).message
    assert period.check(np.float64(1024.0))
    row = Exercise(
        "Row? Give each to 4 decimals.",
        [0.12344, 0.56789, -0.5],
        hint="h",
        solution="answer = [0.1234, 0.5679, -0.5]",
        decimals=4,
    )
    message = row.check([0.1299, 0.5679, -0.5]).message
    assert "1 of 3 entries differ, the first at index (0,)" in message, message


def test_a_typical_mistake_given_as_asked_gets_its_explanation():
    angle = Exercise(
        "Angle in degrees? Give it to 1 decimal.",
        35.26438968,
        hint="h",
        solution="answer = 35.3",
        decimals=1,
        mistakes=[(0.6154797, "That is in radians.")],
    )
    assert "radians" in angle.check(0.6).message and "radians" in angle.check(0.62).message


def test_one_entry_off_by_one_is_named():
    row = Exercise(
        "∂L/∂s? Give each to 4 decimals.",
        [-2 / 3, 1 / 3, 1 / 3],
        hint="h",
        solution="answer = [-0.6667, 0.3333, 0.3333]",
        decimals=4,
    )
    message = row.check([-0.6667, 0.3334, 0.3333]).message
    assert "in entry (1,)" in message and "every entry" not in message, message


def test_a_float16_of_the_right_answer_is_told_about_its_dtype_not_about_rounding():
    angle = Exercise("θ? Give it to 4 decimals.", 0.2213594, hint="h", solution="answer = 0.2214", decimals=4)
    # np.float16(0.2213594) prints as 0.2213: it looks cut off, but the learner's slip is the dtype.
    message = angle.check(np.float16(0.2213594)).message
    assert "np.float16 keeps only about 3 significant digits" in message and "cut" not in message, message
    assert "cut the digits off" in angle.check(np.float64(0.2213)).message  # the same digits in float64
    assert angle.check(np.float32(0.2213594))  # float32 holds enough digits for this question


def test_text_with_a_decimal_comma_is_told_to_use_a_point():
    angle = Exercise("θ? Give it to 4 decimals.", 0.2213594, hint="h", solution="answer = 0.2214", decimals=4)
    message = angle.check("0,2214").message
    assert "write 0.2214 without quotes (a decimal point, not a comma)" in message, message
    assert "thousands" not in message
    period = Exercise("Period of bit 9?", 1024, hint="h", solution="answer = 1024")
    assert "or 1024 if the comma separates thousands" in period.check("1,024").message


def test_a_function_returning_text_is_told_to_return_numbers():
    for function in (lambda x: str(x**2), lambda x: [f"{v}" for v in np.atleast_1d(x**2)]):
        message = square.check(function).message
        assert "return numbers, not text" in message and "without quotes" not in message, message


def test_more_digits_and_off_by_one_are_told_apart_entry_by_entry():
    sizes = Exercise(
        "Two sizes? Give each to 3 significant digits.",
        [1234.5678, 0.012345678],
        hint="h",
        solution="answer = [1230, 0.0123]",
        significant=3,
    )
    # Both entries have exactly the digits asked for, the last one off: a rounding slip, in both.
    assert "Round only the final value" in sizes.check([1240, 0.0124]).message
    # Entry 1 is off by one in its last digit; entry 0 has more digits but is right.
    message = sizes.check([1234.6, 0.0124]).message
    assert "Round only the final value" in message and "in entry (1,)" in message, message
    assert "more than half a unit" in sizes.check([1234.6, 0.01244]).message


def test_functions_have_no_answer_form_and_float16_results_are_named():
    assert square.answer_form is None and wavelength.answer_form == "the exact value"
    message = square.check(lambda x: np.asarray(x**2, dtype=np.float16) + np.float16(0.001)).message
    assert "wrong result" in message and "np.float16" not in message, message
    third = FunctionExercise(
        "x/3", reference=lambda x: x / 3, cases=[(1.0,), (np.arange(3.0),)], hint="h", solution="s"
    )
    message = third.check(lambda x: np.asarray(np.asarray(x) / 3, dtype=np.float16)).message
    assert "np.float16 keeps only about 3 significant digits" in message, message


def test_word_answers_spelled_otherwise_and_odd_objects():
    word = Exercise(
        "Which?", "invariant", hint="h", solution="answer = 'invariant'", choices=["equivariant", "invariant"]
    )
    assert word.check("In-variant") and word.check(np.str_("invariant"))  # no aliases needed
    assert "np.str_" not in word.check(np.str_("variant")).message

    class Hostile(dict):
        def __len__(self):
            raise ZeroDivisionError

    message = word.check(Hostile()).message
    assert "cannot be read" in message and "could not judge" not in message, message
    question = Exercise("Is 7 prime?", True, hint="h", solution="answer = True")
    assert "quotes" not in question.check(1).message and "without quotes" in question.check("yes").message


def test_a_float16_too_coarse_to_judge_is_not_called_close():
    length = Exercise(
        "λ? Give it to 5 significant digits.", 35332.9475, hint="h", solution="answer = 35333", significant=5
    )
    # float16 steps by 16 here: 35315 and the answer are the same float16, so it cannot say "close".
    message = length.check(np.float16(35315)).message
    assert message.startswith("Too few digits: np.float16") and "it holds 35328" in message, message
    assert "not the right value" in length.check(np.float16(36000)).message  # 42 steps away: wrong
    row = Exercise("Row? Give each to 4 decimals.", [0.0884, 0.80853], hint="h", solution="s", decimals=4)
    message = row.check(np.array([0.0884, 0.80853], dtype=np.float16)).message
    assert "entry (1,) holds 0.80859375" in message, message  # the entry that is off, not the first


def test_decimal_commas_in_text_anywhere():
    number = Exercise("x? Give it to 1 decimal.", 0.5, hint="h", solution="answer = 0.5", decimals=1)
    assert "write +0.5 without quotes (a decimal point" in number.check("+0,5").message
    million = Exercise("n?", 10**6, hint="h", solution="answer = 1000000")
    assert "write 1000000 without quotes (no commas" in million.check("1,000,000").message
    row = Exercise("Row?", [-0.577, 0.2716], hint="h", solution="s", rtol=1e-3)
    message = row.check("-0,577, 0,2716").message
    assert "as a list with decimal points, without quotes: [-0.577, 0.2716]" in message, message
    assert "item [0] is text '-0,577': write -0.577 without quotes" in row.check(["-0,577", "0,2716"]).message
    assert "[0, 1]" in Exercise("Two?", [0, 1], hint="h", solution="s").check("0,1").message


def test_a_function_returning_bytes_is_told_to_return_numbers():
    message = square.check(lambda x: str(x).encode()).message
    assert "return numbers, not text" in message and "b prefix" not in message, message


def test_float16_results_are_named_only_when_every_case_is_within_its_steps():
    third = FunctionExercise(
        "x/3", reference=lambda x: x / 3, cases=[(1.0,), (-2.0,)], hint="h", solution="s"
    )
    message = third.check(lambda x: np.float16(x / 3)).message
    assert "Too few digits: np.float16" in message and "return that" in message, message
    # Right in float16 on the first case only: a real mistake, not the dtype.
    message = third.check(lambda x: np.float16(abs(x) / 3)).message
    assert "np.float16" not in message and "wrong result for arguments (-2.0,)" in message, message


def test_decimal_commas_with_semicolons_and_thousands_with_a_point():
    row = Exercise("Row?", [-0.6667, 0.3333], hint="h", solution="s", rtol=1e-3)
    assert "[-0.6667, 0.3333]" in row.check("-0,6667; 0,3333").message
    base = Exercise("Base? Give it to 7 significant digits.", 40889.94, hint="h", solution="s", significant=7)
    assert "write 40889.94 without quotes (no commas" in base.check("40,889.94").message
