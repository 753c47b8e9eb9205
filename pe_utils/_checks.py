"""Argument checks shared by every public function.

Each check runs before any work is done and raises ``ValueError`` or
``TypeError`` with a message that names the argument and says what was
expected, so a learner never has to read a deep NumPy traceback.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

#: Largest array, in bytes, that a ``pe_utils`` function agrees to allocate.
#: Tables bigger than this are refused before any memory is touched.
MAX_TABLE_BYTES: int = 2**30

LAYOUTS: tuple[str, ...] = ("interleaved", "concatenated")


def _is_integer(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def check_d_model(d_model: Any, name: str = "d_model") -> int:
    """Return ``d_model`` as an ``int`` if it is a positive even integer."""
    if not _is_integer(d_model):
        raise TypeError(
            f"{name} must be a positive even integer, got {d_model!r} of type {type(d_model).__name__}"
        )
    d_model = int(d_model)
    if d_model <= 0 or d_model % 2:
        raise ValueError(
            f"{name} must be a positive even integer (one sin and one cos per pair), got {d_model}"
        )
    return d_model


def check_count(value: Any, name: str) -> int:
    """Return ``value`` as an ``int`` if it is a non-negative integer."""
    if not _is_integer(value):
        raise TypeError(
            f"{name} must be a non-negative integer, got {value!r} of type {type(value).__name__}"
        )
    if value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value}")
    return int(value)


def check_base(base: Any, name: str = "base") -> float:
    """Return ``base`` as a ``float`` if it is a finite real number greater than 1."""
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, numbers.Real):
        raise TypeError(f"{name} must be a real number greater than 1, got {base!r}")
    base = float(base)
    if not np.isfinite(base) or base <= 1.0:
        raise ValueError(f"{name} must be a finite number greater than 1, got {base}")
    return base


def check_positive_real(value: Any, name: str) -> float:
    """Return ``value`` as a ``float`` if it is a finite real number greater than 0."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite positive real number, got {value!r}")
    value = float(value)
    if not np.isfinite(value) or value <= 0.0:
        raise ValueError(f"{name} must be a finite positive number, got {value}")
    return value


def check_positive_count(value: Any, name: str) -> int:
    """Return ``value`` as an ``int`` if it is a positive integer."""
    if not _is_integer(value):
        raise TypeError(f"{name} must be a positive integer, got {value!r} of type {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value}")
    return int(value)


def check_choice(value: Any, choices: tuple[str, ...], name: str) -> str:
    """Return ``value`` if it is one of the strings ``choices``; list them otherwise."""
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(repr(choice) for choice in choices)
        raise ValueError(f"{name} must be one of {listed}, got {value!r}")
    return value


def check_proportion(proportion: Any, name: str = "proportion") -> float:
    """Return ``proportion`` as a float if it is a real number in ``[0, 1]``.

    The share ``p`` of p-RoPE's rotated pairs (notebook 13); ``TypeError`` for anything but a real
    number (``bool`` included), ``ValueError`` outside ``[0, 1]`` or for NaN.
    """
    if isinstance(proportion, (bool, np.bool_)) or not isinstance(proportion, numbers.Real):
        raise TypeError(f"{name} must be a real number from 0 to 1, got {proportion!r}")
    proportion = float(proportion)
    if not 0.0 <= proportion <= 1.0:  # also refuses NaN
        raise ValueError(
            f"{name} must be a number from 0 to 1 (the share of pairs rotated), got {proportion}"
        )
    return proportion


def check_layout(layout: Any, name: str = "layout") -> str:
    """Return ``layout`` if it is one of :data:`LAYOUTS`."""
    return check_choice(layout, LAYOUTS, name)


def check_float_dtype(dtype: Any, name: str = "dtype") -> np.dtype:
    """Return ``np.dtype(dtype)`` if it is a real floating-point type."""
    try:
        resolved = np.dtype(dtype)
    except TypeError as error:
        raise TypeError(f"{name} must be a floating-point dtype, got {dtype!r}") from error
    if not np.issubdtype(resolved, np.floating):
        raise TypeError(f"{name} must be a floating-point dtype such as np.float64, got {resolved}")
    return resolved


def check_real_array(values: Any, name: str) -> np.ndarray:
    """Return ``values`` as a float64 array if it holds real numbers (integers or floats)."""
    try:
        array = np.asarray(values)
    except (ValueError, TypeError):  # a ragged list: NumPy's "inhomogeneous shape" names nothing
        raise ValueError(
            f"{name} must be a rectangular array of real numbers (rows of equal length)"
        ) from None
    is_real = np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    if (
        array.dtype == object
        and array.size
        and all(isinstance(item, int) and not isinstance(item, bool) for item in array.flat)
    ):
        # Python ints beyond int64 (say 2**70) are real numbers too: take them as floats.
        try:
            return array.astype(np.float64)
        except OverflowError:
            raise ValueError(f"{name} must be real numbers within the float64 range") from None
    if array.dtype == np.bool_ or not is_real:
        raise TypeError(f"{name} must be real numbers, got an array of dtype {array.dtype}")
    return array.astype(np.float64, copy=False)


def check_finite_array(values: Any, name: str) -> np.ndarray:
    """Return ``values`` as a float64 array if every entry is a finite real number."""
    array = check_real_array(values, name)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite numbers, got NaN or infinity")
    return array


def check_scalar(value: Any, name: str) -> float:
    """Return ``value`` as a ``float`` if it is one finite real number."""
    array = check_finite_array(value, name)
    if array.ndim != 0:
        raise ValueError(f"{name} must be a single number, got an array of shape {array.shape}")
    return float(array)


def check_rows(values: Any, name: str) -> tuple[np.ndarray, int]:
    """Return ``values`` as a float64 array of rows ``(..., d)`` and its even ``d``."""
    array = check_finite_array(values, name)
    if array.ndim == 0:
        raise ValueError(f"{name} must have a last axis of even length d_model, got a scalar")
    return array, check_d_model(array.shape[-1], name=f"{name}.shape[-1] (d_model)")


def check_matrix(values: Any, name: str) -> np.ndarray:
    """Return ``values`` as a 2-D array of finite floats."""
    array = check_finite_array(values, name)
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {array.shape}")
    return array


def check_table_size(shape: tuple[int, ...], dtype: Any, name: str = "table") -> None:
    """Refuse, before allocating, an array larger than :data:`MAX_TABLE_BYTES`."""
    n_bytes = int(np.prod(shape, dtype=object)) * np.dtype(dtype).itemsize
    if n_bytes > MAX_TABLE_BYTES:
        raise ValueError(
            f"{name} of shape {shape} would need {n_bytes / 2**30:.2f} GiB, over the "
            f"{MAX_TABLE_BYTES / 2**30:.2f} GiB budget (pe_utils.MAX_TABLE_BYTES); "
            "ask for fewer positions or a smaller d_model"
        )


def check_table_arguments(
    n_positions: Any, d_model: Any, base: Any, layout: Any, dtype: Any
) -> tuple[int, int, float, str, np.dtype]:
    """The checked arguments of a table builder (``sinusoidal_pe``, ``sinusoidal_pe_fast``),
    refused before any work if the float64 table would be too large to allocate."""
    n_positions = check_count(n_positions, "n_positions")
    d_model = check_d_model(d_model)
    base = check_base(base)
    layout = check_layout(layout)
    dtype = check_float_dtype(dtype)
    check_table_size((n_positions, d_model), np.float64, name="encoding table")
    return n_positions, d_model, base, layout, dtype
