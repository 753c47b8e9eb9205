"""Printing results that stay the same on every machine (notebook 10 onwards): a rounding guard
(``rounds_stably``, ``rounded``), percentages, and the "mean (smallest–largest)" of an experiment over
seeds.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._checks import check_finite_array, check_scalar

#: How far from a rounding boundary a printed value must be, in steps of its last digit.
ROUNDING_MARGIN = 1e-4


def rounds_stably(value: Any, digits: Any) -> bool:
    """Whether ``value`` is more than :data:`ROUNDING_MARGIN` of a last-digit step from a boundary.

    With ``x = value · 10^digits``, the boundaries of ``round(value, digits)`` are the half-way
    points ``x − ⌊x⌋ = 1/2``; the test is ``|x − ⌊x⌋ − 1/2| > 10⁻⁴``.

    Why ``10⁻⁴`` of a step: CPUs differ by about ``10⁻¹⁶`` relative per operation. Notebooks 10
    (§5) and 13 (§4) nudge a head's starting weights by ``10⁻¹²``, ten thousand times more, and
    measure that its outputs move by under ``10⁻⁷`` and its training loss by under ``10⁻⁶`` of
    itself. Notebook 10 prints at 2 decimals, as whole percents, and its losses to 2 significant
    digits: ``10⁻⁴`` of a step is there ``10⁻⁶``, and at least ``10⁻⁶`` of a loss; what it nudged
    stayed under a tenth of the first and under the second, which it asserts with this
    constant. The other printed
    statistics were not nudged; the margin keeps them ``10⁴`` times further from a boundary than
    one operation's difference between CPUs, and ``make portability`` reruns the notebooks with
    other CPU features to test them. Introduced in notebook 10.

    Parameters
    ----------
    value : float
        Finite.
    digits : int
        Decimal places, as in ``round(value, digits)`` (negative: tens, hundreds, …).
    """
    value = check_scalar(value, "value")
    digits = _check_digits(digits)
    scaled = value * 10.0**digits
    return abs(scaled - math.floor(scaled) - 0.5) > ROUNDING_MARGIN


def _check_digits(digits: Any) -> int:
    if isinstance(digits, (bool, np.bool_)) or not isinstance(digits, (int, np.integer)):
        raise TypeError(f"digits must be a whole number, got {digits!r}")
    if abs(int(digits)) > 15:
        raise ValueError(f"digits must be from -15 to 15 (float64 holds about 16 digits), got {digits}")
    return int(digits)


def rounded(value: Any, digits: Any) -> float | int:
    """Return ``round(value, digits)``: an ``int`` for ``digits ≤ 0``, else a ``float``.

    Raises ``ValueError`` when :func:`rounds_stably` fails: another CPU could print another
    digit, and the notebook stops rather than store it. Introduced in notebook 10.
    """
    value = check_scalar(value, "value")
    digits = _check_digits(digits)
    if not rounds_stably(value, digits):
        raise ValueError(
            f"value {value!r} is within {ROUNDING_MARGIN:g} of a step of a rounding boundary at {digits} "
            "digits: another CPU could print another last digit (print more or fewer digits)"
        )
    return round(value, digits) if digits > 0 else int(round(value, digits))


def pct(share: Any) -> int:
    """A share as a whole percent, ``round(100 · share)``, through :func:`rounded`.

    Introduced in notebook 10.
    """
    return rounded(100 * check_scalar(share, "share"), 0)


def mean_range(values: Any, digits: int = 2, *, percent: bool = False) -> str:
    """Return ``"mean (smallest–largest)"`` of ``values``, each through :func:`rounded`.

    ``"0.30 (0.16–0.41)"`` with ``digits = 2``; with ``percent``, the values are shares printed
    as whole percents, ``"94 (87–98)"`` (``digits`` is then ignored). One value is printed
    alone. Introduced in notebook 10.

    Parameters
    ----------
    values : array_like of real numbers
        One or more, finite (for instance one per seed).
    digits : int
        Decimals, at least 0.
    percent : bool
        Print ``100 · value`` with no decimals.
    """
    values = check_finite_array(values, "values").ravel()
    if values.size == 0:
        raise ValueError("values must hold at least one number, got none")
    digits = _check_digits(digits)
    if digits < 0:
        raise ValueError(f"digits must be at least 0, got {digits}")
    if percent:
        values, digits = 100 * values, 0
    mean = math.fsum(values) / values.size
    low, mean, high = (rounded(x, digits) for x in (values.min(), mean, values.max()))
    if values.size == 1:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ({low:.{digits}f}–{high:.{digits}f})"
