"""The checkers of notebook 03 accept the reference answers and explain typical mistakes.

Reference values here are computed independently of pe_utils and of the
exercise module: with ``math`` and explicit loops over the pairs ``i``.
"""

import math

import numpy as np
import pytest

import pe_utils
from pe_utils.exercises import nb03


def row_by_hand(p, d, base=10000.0):
    """PE(p) by an explicit loop: entry 2i = sin(p ω_i), entry 2i+1 = cos(p ω_i)."""
    row = []
    for i in range(d // 2):
        omega = base ** (-2 * i / d)
        row += [math.sin(p * omega), math.cos(p * omega)]
    return np.array(row)


@pytest.mark.parametrize("exercise", [nb03.wavelength_of_last_pair, nb03.cos_column_concatenated])
def test_printed_solution_code_is_accepted(exercise):
    namespace = {"np": np, "layout_permutation": pe_utils.layout_permutation}
    exec(exercise._solution, namespace)
    assert exercise.check(namespace["answer"])


def test_printed_pe_row_solution_is_accepted():
    namespace = {"np": np}
    exec(nb03.pe_row._solution, namespace)
    assert nb03.pe_row.check(namespace["pe_row"])
    assert nb03.pe_row.check(namespace["answer"])  # the solution sets answer too


# --- wavelength_of_last_pair ---------------------------------------------------

# d = 32, base = 10000, last pair i = 15: λ = 2π·10000^(30/32) = 2π·10^3.75
LAST_WAVELENGTH = 2 * math.pi * 10**3.75


def test_wavelength_accepts_reference():
    assert math.isclose(LAST_WAVELENGTH, 35332.94752055899, rel_tol=1e-12)
    assert nb03.wavelength_of_last_pair.check(LAST_WAVELENGTH)
    assert nb03.wavelength_of_last_pair.check(round(LAST_WAVELENGTH, 3))
    assert nb03.wavelength_of_last_pair.check(35332.9)  # rounded to one decimal


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (2 * math.pi * 1e4, "common misstatement"),
        (2 * math.pi * 10**1.875, "exponent is i/d"),  # 10000^(15/32)
        (2 * math.pi * 10**3.875, "dimension index d − 1"),  # 10000^(31/32)
        (360 * 10**3.75, "degrees"),
        (10**3.75, "positions per radian"),
        (10**-3.75, "That is the frequency"),
    ],
)
def test_wavelength_explains_mistakes(answer, phrase):
    result = nb03.wavelength_of_last_pair.check(answer)
    assert not result
    assert phrase in result.message


def test_wavelength_unrecognised_answer():
    result = nb03.wavelength_of_last_pair.check(12345.0)
    assert not result
    assert "try hint()" in result.message.lower()


# --- pe_row ----------------------------------------------------------------------


def test_pe_row_accepts_hand_loop_and_package():
    assert nb03.pe_row.check(row_by_hand)
    assert nb03.pe_row.check(lambda p, d: pe_utils.encode_positions(p, d))
    assert nb03.pe_row.check(lambda p, d: list(row_by_hand(p, d)))


def test_pe_row_reference_hand_values():
    # d = 8, base = 10000: ω = 1, 0.1, 0.01, 0.001
    row = nb03.pe_row.reference(3, 8)
    angles = [3.0, 0.3, 0.03, 0.003]
    expected = [f(a) for a in angles for f in (math.sin, math.cos)]
    np.testing.assert_allclose(row, expected, atol=1e-15)


def swapped(p, d):
    row = row_by_hand(p, d)
    return row.reshape(-1, 2)[:, ::-1].reshape(-1)


def next_pair(p, d):
    row = []
    for i in range(d // 2):
        omega = 10000.0 ** (-2 * (i + 1) / d)
        row += [math.sin(p * omega), math.cos(p * omega)]
    return np.array(row)


def dimension_index(p, d):
    row = []
    for i in range(d // 2):
        omega = 10000.0 ** (-i / d)
        row += [math.sin(p * omega), math.cos(p * omega)]
    return np.array(row)


def degrees(p, d):
    row = []
    for i in range(d // 2):
        angle_in_degrees = p * 10000.0 ** (-2 * i / d)
        radians = angle_in_degrees * math.pi / 180
        row += [math.sin(radians), math.cos(radians)]
    return np.array(row)


def one_frequency_per_column(p, d):
    # slip (b) of notebook 03: column j gets 10000^(−j/d), j the dimension index
    row = []
    for j in range(d):
        angle = p * 10000.0 ** (-j / d)
        row.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))
    return np.array(row)


def from_one(p, d):
    return row_by_hand(p + 1, d)


def concatenated(p, d):
    row = row_by_hand(p, d)
    return np.concatenate([row[0::2], row[1::2]])


@pytest.mark.parametrize(
    ("wrong", "phrase"),
    [
        (swapped, "sin and cos are swapped"),
        (next_pair, "off by one pair"),
        (dimension_index, "exponent is −i/d"),
        (degrees, "treated as degrees"),
        (one_frequency_per_column, "cosines have their own frequencies"),
        (from_one, "positions start at 0"),
        (concatenated, "concatenated layout"),
    ],
)
def test_pe_row_explains_mistakes(wrong, phrase):
    result = nb03.pe_row.check(wrong)
    assert not result
    assert phrase in result.message


def test_pe_row_rejects_non_function_and_wrong_length():
    assert "Expected a function" in nb03.pe_row.check(row_by_hand(0, 8)).message
    result = nb03.pe_row.check(lambda p, d: row_by_hand(p, d)[:-1])
    assert not result
    assert "Expected shape" in result.message


def test_pe_row_reports_an_exception():
    def broken(p, d):
        raise RuntimeError("boom")

    result = nb03.pe_row.check(broken)
    assert not result
    assert "RuntimeError: boom" in result.message


def test_pe_row_explains_integer_powers_and_numpy_functions():
    def integer_power(p, d):  # 10000 ** (negative int array): NumPy raises ValueError
        i = np.arange(d // 2)
        omega = 10000 ** (-2 * i // d)
        row = np.empty(d)
        row[0::2], row[1::2] = np.sin(p * omega), np.cos(p * omega)
        return row

    result = nb03.pe_row.check(integer_power)
    assert not result
    assert "float, 10000.0" in result.message
    result = nb03.pe_row.check(np.sin)
    assert not result
    assert "np.sin itself" in result.message and "answer = pe_row" in result.message


# --- cos_column_concatenated -----------------------------------------------------


def test_cos_column_accepts_reference():
    # d = 16: sines in columns 0…7, cosines of pairs 0…7 in columns 8…15; pair 3 → 11
    assert nb03.cos_column_concatenated.check(11)
    order = pe_utils.layout_permutation(16)
    assert order[11] == 2 * 3 + 1  # the same number as interleaved column 2i+1


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (7, "interleaved layout"),
        (3, "holds sin"),
        (8, "cosine of pair 0"),
        (10, "Off by one"),
        (12, "Off by one"),
    ],
)
def test_cos_column_explains_mistakes(answer, phrase):
    result = nb03.cos_column_concatenated.check(answer)
    assert not result
    assert phrase in result.message


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (35332.9, "Correct"),  # λ = 2π·10000^(30/32) rounded to one decimal
        (35333, "Correct"),
        (35300, "Close"),  # right to its three digits: ask for more
        (3.5e4, "Close"),
        ("35332.9", "without quotes"),
        (35332.9 + 0j, "complex"),
        (None, "None"),
        (True, "boolean"),
        (10**400, "far too large"),
        ([35332.9], "single number"),
    ],
)
def test_wavelength_rounded_and_malformed_answers(answer, verdict):
    result = nb03.wavelength_of_last_pair.check(answer)
    assert verdict in repr(result)
    assert bool(result) == (verdict == "Correct")


def test_pe_row_messages_for_odd_functions():
    def returns_a_row_of_rows(p, d):
        return row_by_hand(p, d)[None, :]

    def prints_and_forgets_return(p, d):
        print("row", p)

    def returns_complex(p, d):
        return row_by_hand(p, d).astype(complex)

    assert "shape (8,)" in repr(nb03.pe_row.check(returns_a_row_of_rows))
    message = repr(nb03.pe_row.check(prints_and_forgets_return))
    assert "returned None" in message and "printed" in message
    assert "complex" in repr(nb03.pe_row.check(returns_complex))
    assert nb03.pe_row.check(row_by_hand)  # nothing above changed the checker


# --- position_from_row (the checkpoint after the formula) --------------------------


def test_position_from_row_shows_the_row_of_p_20():
    # the row the question prints is PE(20) for d = 8, by the hand loop, to 4 decimals
    np.testing.assert_allclose(nb03.ROW_SHOWN, np.round(row_by_hand(20, 8), 4), atol=0)
    shown = "[0.9129, 0.4081, 0.9093, -0.4161, 0.1987, 0.9801, 0.0200, 0.9998]"
    assert shown in nb03.position_from_row.question


def test_position_from_row_accepts_the_position_found_by_search():
    # independently of the checker: the one position 0 … 9999 whose row, rounded, is the row shown
    shown = nb03.ROW_SHOWN
    found = [p for p in range(10_000) if np.array_equal(np.round(row_by_hand(p, 8), 4), shown)]
    assert found == [20]
    assert nb03.position_from_row.check(found[0])
    assert nb03.position_from_row.check(20.0)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        (20 - 6 * math.pi, "pair 0's angle"),  # arctan2 of pair 0: 20 rad less three turns
        (1.1504, "pair 0's angle"),
        (1.1502, "pair 0's angle"),  # a learner's rounding of 20 − 6π
        (20 - 4 * math.pi, "plus 1 whole turn"),  # pair 0's angle plus 2π
        (7.43, "plus 1 whole turn"),
        (20 - 2 * math.pi, "plus 2 whole turns"),
        (13.72, "plus 2 whole turns"),
        (math.asin(0.9093) / 0.1, "arcsin alone"),  # pair 1's angle is past a quarter turn
        (11.42, "arcsin alone"),
        (2.0, "angle of pair 1"),
        (math.atan2(0.9093, -0.4161), "angle of pair 1"),
        (0.2, "angle of pair 2"),
        (0.02, "angle of pair 3"),
    ],
)
def test_position_from_row_explains_mistakes(answer, phrase):
    result = nb03.position_from_row.check(answer)
    assert not result
    assert phrase in result.message


@pytest.mark.parametrize("answer", [19, 21, 20.5, 200])
def test_position_from_row_refuses_other_positions(answer):
    assert not nb03.position_from_row.check(answer)


# --- which_slip (find the slip) ----------------------------------------------------


def test_which_slip_is_degrees_by_the_periods():
    # independently: pair 0 of the degrees slip is sin(p·π/180), period 360; of the right table
    # and of slip (a) it is sin(p), which does not repeat after 360 rows
    assert "[0.0175, 0.9998, …]" in nb03.which_slip.question  # sin 1°, cos 1°
    assert "360" not in nb03.which_slip.question and "degree" not in nb03.which_slip.question[:150]
    p = np.arange(800)
    degrees_pair0 = np.sin(p * math.pi / 180)
    np.testing.assert_allclose(degrees_pair0[360:], degrees_pair0[:-360], atol=1e-12)
    assert not np.allclose(np.sin(p[360:] * 1.0), np.sin(p[:-360] * 1.0), atol=0.1)
    assert nb03.which_slip.check("degrees")
    assert nb03.which_slip.check(" Degrees. ")
    assert nb03.which_slip.check("degree")


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        ("exponent", "slower pairs only"),
        ("per column", "‖PE(p)‖² changes"),
        ("from one", "row 0 PE(1)"),
        ("concatenated", "All sines first"),
    ],
)
def test_which_slip_explains_mistakes(answer, phrase):
    result = nb03.which_slip.check(answer)
    assert not result
    assert phrase in result.message


def test_which_slip_names_the_allowed_words():
    result = nb03.which_slip.check("radians")
    assert not result
    assert "'degrees'" in result.message and "'per column'" in result.message
