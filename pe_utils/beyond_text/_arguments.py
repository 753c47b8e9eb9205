"""Argument checks shared by the tables of notebook 12 (dimensions, grids, angles that would overflow)."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .._checks import (
    check_d_model,
    check_positive_count,
)


def _check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _check_real(value: Any, name: str) -> float:
    """``value`` as a float if it is one finite real number (not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite real number, got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value}")
    return value


def _check_dim(dim: Any) -> int:
    dim = check_positive_count(dim, "dim")
    if dim < 2:
        raise ValueError(f"dim must be at least 2 (one sin and one cos), got {dim}")
    return dim


#: ``|count − shift|`` below this (relative to ``count``) is treated as a zero denominator.
_DENOMINATOR_TOLERANCE = 1e-9


#: The largest ``|log ω|`` a grid may reach: ``exp(709.78)`` is float64's largest number.
_LARGEST_LOG = math.log(np.finfo(np.float64).max)


def _check_grid(
    count: int, shift: float, base: float, *, names: tuple[str, str, str], zero_hint: str
) -> None:
    """Check the grid ``ω_i = base^(−i/(count − shift))``, ``i = 0 … count − 1``.

    Refuses a denominator within ``1e-9·count`` of zero (0/0 at ``i = 0``: NaN in the first pair,
    as diffusers returns) and a step that makes the largest frequency ``exp((count − 1)·step)``
    overflow float64 (then ``sin(∞)`` is NaN). ``names`` are the caller's names of ``count``,
    ``shift`` and ``base``.
    """
    count_name, shift_name, base_name = names
    denominator = count - shift
    if abs(denominator) <= _DENOMINATOR_TOLERANCE * count:
        if denominator == 0:
            what = "zero: diffusers' formula divides 0 by 0 there, NaN in the first pair"
        else:
            what = f"almost zero ({denominator:.3g}): the frequencies overflow or collapse to 0"
        raise ValueError(
            f"{shift_name} = {shift!r} with {count_name} = {count} makes the denominator "
            f"{count_name} − {shift_name} {what}. {zero_hint}"
        )
    step = -math.log(base) / denominator  # log ω_i = i · step
    if (count - 1) * step > _LARGEST_LOG:
        raise ValueError(
            f"{shift_name} = {shift!r} with {count_name} = {count} and {base_name} = {base:g} makes "
            f"the frequencies {base_name}^(−i/({count_name} − {shift_name})) overflow float64 (the last "
            f"is exp({(count - 1) * step:.4g})); use a shift further from {count_name}"
        )


def _check_angles(largest: float, description: str) -> None:
    """Refuse a table whose largest ``|angle|`` (a product of maxima) overflows float64."""
    if not math.isfinite(largest):
        raise ValueError(
            f"{description} overflows float64 (the largest angle is infinite), and sin/cos of it would be "
            "NaN: use smaller values"
        )


def _largest(values: np.ndarray) -> float:
    """``max |values|`` as a float (0 for an empty array)."""
    return float(np.max(np.abs(values))) if values.size else 0.0


def _check_multiple_of_4(value: Any, name: str) -> int:
    """``value`` as an int if it is a positive multiple of 4 (a sin and a cos per frequency, two axes)."""
    value = check_d_model(value, name)
    if value % 4:
        raise ValueError(
            f"{name} must be a positive multiple of 4 (a sin and a cos per frequency, for two axes), "
            f"got {value}"
        )
    return value
