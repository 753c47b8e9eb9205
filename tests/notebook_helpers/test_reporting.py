"""Tests of the printing helpers of pe_utils.notebook_helpers (notebook 10): the rounding guard and
the formatters.

Expected values are written out by hand here, never copied from the code's output.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pe_utils.notebook_helpers import ROUNDING_MARGIN, mean_range, pct, rounded, rounds_stably


@pytest.mark.parametrize(
    ("value", "digits", "stable"),
    [
        (0.125, 2, False),  # 12.5 hundredths: on the boundary
        (0.12500001, 2, False),  # 1e-6 of a step past it: inside the margin
        (0.125002, 2, True),  # 2e-4 of a step past it
        (-0.125, 2, False),  # negative values: the same boundaries
        (0.1234, 2, True),
        (2.5, 0, False),
        (2.4, 0, True),
        (25.0, -1, False),  # tens: 2.5 tens
        (31.0, -1, True),
        (0.0, 3, True),
    ],
)
def test_rounds_stably_by_hand(value, digits, stable):
    assert rounds_stably(value, digits) is stable


def test_the_margin_is_a_ten_thousandth_of_a_step():
    assert ROUNDING_MARGIN == 1e-4
    # 0.5 + 1.5e-4 of a step passes, 0.5 + 0.5e-4 does not (one decimal: a step is 0.1)
    assert rounds_stably(0.05 + 1.5e-5, 1) and not rounds_stably(0.05 + 0.5e-5, 1)


def test_rounded_by_hand():
    assert rounded(0.1234, 2) == 0.12 and isinstance(rounded(0.1234, 2), float)
    assert rounded(2.4, 0) == 2 and isinstance(rounded(2.4, 0), int)
    assert rounded(1234.0, -2) == 1200 and isinstance(rounded(1234.0, -2), int)
    assert rounded(np.float64(0.0066), 3) == 0.007


def test_rounded_refuses_a_value_on_a_boundary():
    with pytest.raises(ValueError, match="value 0.125 is within"):
        rounded(0.125, 2)


def test_pct_by_hand():
    assert pct(0.3249) == 32 and pct(1.0) == 100 and pct(np.float64(0.0) + 0.994) == 99
    with pytest.raises(ValueError, match="rounding boundary"):
        pct(0.125)  # 12.5 %


def test_mean_range_by_hand():
    assert mean_range([0.1, 0.2, 0.3]) == "0.20 (0.10–0.30)"
    assert mean_range(np.array([0.31, 0.33, 0.32]), percent=True) == "32 (31–33)"
    assert mean_range([1.04, 2.0], 1) == "1.5 (1.0–2.0)"
    assert mean_range([0.987]) == "0.99"  # one value: printed alone
    assert mean_range([1.0, 1.0], percent=True) == "100 (100–100)"


@pytest.mark.parametrize(
    ("call", "error", "phrase"),
    [
        (lambda: rounds_stably(float("nan"), 2), ValueError, "value"),
        (lambda: rounds_stably([0.1, 0.2], 2), ValueError, "value must be a single number"),
        (lambda: rounds_stably("0.1", 2), TypeError, "value"),
        (lambda: rounded(0.1, 1.5), TypeError, "digits"),
        (lambda: rounded(0.1, True), TypeError, "digits"),
        (lambda: rounded(0.1, 40), ValueError, "digits"),
        (lambda: pct(float("inf")), ValueError, "share"),
        (lambda: mean_range([]), ValueError, "values"),
        (lambda: mean_range([0.1, float("nan")]), ValueError, "values"),
        (lambda: mean_range([0.1, 0.2], -1), ValueError, "digits"),
    ],
)
def test_bad_input_names_the_argument(call, error, phrase):
    with pytest.raises(error, match=phrase):
        call()


@given(value=st.floats(-1e6, 1e6, allow_nan=False), digits=st.integers(0, 6))
def test_a_stable_value_prints_as_python_rounds_it(value, digits):
    assume(rounds_stably(value, digits))
    # the same number as Python prints (an int 0 drops the sign of "-0")
    assert float(f"{rounded(value, digits):.{digits}f}") == float(f"{value:.{digits}f}")


@given(values=st.lists(st.floats(0, 1), min_size=1, max_size=8))
def test_mean_range_puts_the_mean_between_the_extremes(values):
    assume(all(rounds_stably(100 * v, 0) for v in values) and rounds_stably(100 * np.mean(values), 0))
    text = mean_range(values, percent=True)
    numbers = [int(part) for part in text.replace("(", " ").replace(")", " ").replace("–", " ").split()]
    assert numbers[0] == round(100 * float(np.mean(values)))
    if len(values) > 1:
        assert numbers[1] <= numbers[0] <= numbers[2]
