"""How precise is the table? (notebook 07).

Four tools to measure it:

- :func:`reference_encoding` computes ``PE(p)`` with Python's ``decimal``
  module at 40 significant digits: ``ω_i`` from ``exp`` and ``ln``, the angle
  ``p ω_i`` reduced exactly modulo ``2π``, and ``sin``/``cos`` by their Taylor
  series. No NumPy or libm trigonometry is involved, so it is independent of
  the code it checks, and it gives the same numbers on every CPU.
- :func:`encode_with_angle_dtype` is the *unsafe* recipe: angles ``p ω_i``
  computed in a low-precision type (float32, float16).
- :func:`float32_angle_error` measures that recipe's angles in float32, position by
  position: the largest ``|fl₃₂(p ω̃_i) − p ω_i|`` over the pairs.
- :func:`round_to_bfloat16` rounds float64 values to bfloat16 (8 significant bits), the
  precision of many models' weights and activations, to compare each error with its rounding.

The safe recipe (angles in float64, cast only the result) is what
:func:`pe_utils.encode_positions` does, and :func:`pe_utils.rope` too (notebook 08):
float32 angles from ``ω_i`` rounded once to float32 err by less than bfloat16's
rounding at every position only up to ``p = 40 226`` at ``d = 128``, base 500000,
and beyond at fewer and fewer (notebook 07 measures it with :func:`float32_angle_error`). The RoPE libraries'
float32 ``inv_freq`` (a float32 power, then a float32 reciprocal: rounded twice)
first exceeds it at ``p = 24 703`` (notebook 08, in a NumPy emulation).
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from typing import Any

import numpy as np

from ._checks import (
    check_base,
    check_count,
    check_d_model,
    check_finite_array,
    check_float_dtype,
    check_layout,
    check_real_array,
    check_table_size,
)
from .encoding import _columns, frequencies

#: Most entries ``reference_encoding`` agrees to compute (it is pure Python).
MAX_REFERENCE_ENTRIES: int = 200_000


def _decimal_pi() -> Decimal:
    """π to the current context precision (the ``decimal`` documentation's series)."""
    decimal.getcontext().prec += 2
    three = Decimal(3)
    last, total, term, n, na, d, da = 0, three, three, 1, 0, 0, 24
    while total != last:
        last = total
        n, na = n + na, na + 8
        d, da = d + da, da + 32
        term = (term * n) / d
        total += term
    decimal.getcontext().prec -= 2
    return +total


def _sin_cos(angle: Decimal, pi: Decimal) -> tuple[Decimal, Decimal]:
    """sin and cos of ``angle`` after reducing it to ``[−π, π]``, by Taylor series."""
    two_pi = 2 * pi
    reduced = angle - two_pi * (angle / two_pi).to_integral_value(rounding=decimal.ROUND_HALF_EVEN)
    squared = reduced * reduced
    tiny = Decimal(10) ** (-(decimal.getcontext().prec + 2))
    sin_term, cos_term = reduced, Decimal(1)
    sin_sum, cos_sum = sin_term, cos_term
    k = 0
    while abs(sin_term) > tiny or abs(cos_term) > tiny:
        k += 1
        cos_term = -cos_term * squared / ((2 * k - 1) * (2 * k))
        sin_term = -sin_term * squared / ((2 * k) * (2 * k + 1))
        cos_sum += cos_term
        sin_sum += sin_term
    return sin_sum, cos_sum


def reference_encoding(
    positions: Any,
    d_model: int,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    digits: int = 40,
) -> np.ndarray:
    """Return ``PE(p)`` computed in extended precision, rounded once to float64.

    ``ω_i = exp(−(2i/d) ln base)``, ``PE(p)[2i] = sin(p ω_i)``,
    ``PE(p)[2i+1] = cos(p ω_i)``, all in ``decimal`` arithmetic with
    ``digits`` significant digits; each position is taken as the exact value
    of its float64. For ``|p| ≤ 10⁶`` the result is the correctly rounded
    float64 of the true value (error at most ``2⁻⁵³``). Introduced in
    notebook 07.

    Parameters
    ----------
    positions : array_like of float
        Any shape; every entry finite and ``|p| ≤ 10¹⁵``.
    d_model : int
        Positive and even.
    base : float
        Greater than 1.
    layout : {"interleaved", "concatenated"}
    digits : int
        Working precision, 20 … 100 significant digits.

    Returns
    -------
    np.ndarray
        Float64 array of shape ``positions.shape + (d_model,)``.
    """
    positions = check_finite_array(positions, "positions")
    d_model = check_d_model(d_model)
    base = check_base(base)
    layout = check_layout(layout)
    digits = check_count(digits, "digits")
    if not 20 <= digits <= 100:
        raise ValueError(f"digits must be between 20 and 100, got {digits}")
    if positions.size and np.max(np.abs(positions)) > 1e15:
        raise ValueError("positions must satisfy |p| ≤ 1e15 for the reference to stay exact")
    n_entries = max(positions.size, 1) * d_model  # even no position costs d/2 frequencies
    if n_entries > MAX_REFERENCE_ENTRIES:
        raise ValueError(
            f"positions and d_model ask for {n_entries} entries, over the {MAX_REFERENCE_ENTRIES} that "
            "reference_encoding computes (it is slow pure Python); sample fewer positions"
        )
    check_table_size(positions.shape + (d_model,), np.float64, name="reference table")
    half = d_model // 2
    with decimal.localcontext() as context:
        # Extra digits absorb the size of p ω (up to 1e15) lost in the reduction mod 2π.
        context.prec = digits + 16
        pi = _decimal_pi()
        log_base = Decimal(base).ln()
        omegas = [(-(Decimal(2 * i) / Decimal(d_model)) * log_base).exp() for i in range(half)]
        sine_cols, cosine_cols = _columns(layout, half)
        table = np.empty((positions.size, d_model))
        for row, position in zip(table, positions.reshape(-1).tolist(), strict=True):
            values = [_sin_cos(Decimal(position) * omega, pi) for omega in omegas]
            row[sine_cols] = [float(sin_value) for sin_value, _ in values]
            row[cosine_cols] = [float(cos_value) for _, cos_value in values]
    return table.reshape(positions.shape + (d_model,))


def encode_with_angle_dtype(
    positions: Any,
    d_model: int,
    *,
    angle_dtype: Any,
    base: float = 10000.0,
    layout: str = "interleaved",
) -> np.ndarray:
    """Return ``PE(p)`` with the angles computed in ``angle_dtype``: the unsafe recipe.

    Positions and ``ω_i`` are cast to ``angle_dtype`` first; the product
    ``p ω_i`` and ``sin``/``cos`` are then evaluated in that type. Positions
    beyond the type's range (65504 for float16) overflow to infinity and give
    NaN entries, silently, as a naive implementation would. Compare with
    :func:`pe_utils.encode_positions`, which computes angles in float64 and
    casts only the result. Introduced in notebook 07.

    Returns
    -------
    np.ndarray
        Array of ``angle_dtype`` with shape ``positions.shape + (d_model,)``.
    """
    positions = check_finite_array(positions, "positions")
    d_model = check_d_model(d_model)
    angle_dtype = check_float_dtype(angle_dtype, "angle_dtype")
    base = check_base(base)
    layout = check_layout(layout)
    check_table_size(positions.shape + (d_model,), np.float64, name="encoding table")
    with np.errstate(over="ignore", invalid="ignore"):
        low_positions = positions.astype(angle_dtype)
        low_omega = frequencies(d_model, base).astype(angle_dtype)
        angles = np.multiply.outer(low_positions, low_omega)  # angle_dtype, like sin and cos below
        table = np.empty(angles.shape[:-1] + (d_model,), dtype=angle_dtype)
        sine_cols, cosine_cols = _columns(layout, d_model // 2)
        # Contiguous sin/cos, then placed: NumPy's low-precision sin may round differently into
        # a strided output, and the two layouts must hold the same numbers.
        table[..., sine_cols] = np.sin(angles)
        table[..., cosine_cols] = np.cos(angles)
    return table


def float32_angle_error(positions: Any, omega: Any, omega32: Any = None) -> np.ndarray:
    """Return, for each position, the largest error of its float32 angles over the pairs.

    ``e(p) = max_i |fl₃₂(fl₃₂(p) · ω̃_i) − p ω_i|`` with ``ω̃_i = omega32[i]`` (by
    default ``ω_i`` rounded once to float32) and ``fl₃₂`` rounding to float32: the
    angle that float32 code computes, against the float64 angle (itself within about
    ``10⁻¹⁶ · p ω_i`` of the exact one). Since sin and cos have slope at most 1, ``e(p)``
    bounds how far float32 angles move the row's entries, up to sin's own rounding.
    Computed one pair at a time, so memory grows with the number of positions only.
    Introduced in notebook 07; notebook 08 passes the libraries' ``inv_freq`` as
    ``omega32``.

    Parameters
    ----------
    positions : array_like of float
        Any shape; finite, within float32's range.
    omega : array_like of float, shape (m,)
        The float64 frequencies ``ω_i``; finite, within float32's range, ``m ≥ 1``.
    omega32 : array_like of float, shape (m,), optional
        The frequencies the float32 code uses; rounded to float32 if they are not
        float32 numbers already. Default: ``omega`` rounded once to float32.

    Returns
    -------
    np.ndarray
        Float64 array of the shape of ``positions``.
    """
    positions = _check_float32_range(check_finite_array(positions, "positions"), "positions")
    omega = _check_float32_range(check_finite_array(omega, "omega"), "omega")
    if omega.ndim != 1 or omega.size == 0:
        raise ValueError(f"omega must be a non-empty 1-D array of frequencies, got shape {omega.shape}")
    if omega32 is None:
        omega32 = omega
    omega32 = _check_float32_range(check_finite_array(omega32, "omega32"), "omega32")
    if omega32.shape != omega.shape:
        raise ValueError(f"omega32 must have the shape of omega, {omega.shape}, got {omega32.shape}")
    positions32 = positions.astype(np.float32)
    error = np.zeros(positions.shape)
    for w, w32 in zip(omega.tolist(), omega32.astype(np.float32), strict=True):
        in_float32 = positions32 * w32  # a float32 product, rounded to float32
        np.maximum(error, np.abs(in_float32.astype(np.float64) - positions * w), out=error)
    return error


def _check_float32_range(array: np.ndarray, name: str) -> np.ndarray:
    """``array`` if every entry is within float32's range (else float32 makes it infinite)."""
    largest = float(np.finfo(np.float32).max)
    if array.size and np.max(np.abs(array)) > largest:
        raise ValueError(
            f"{name} must be within float32's range (|x| ≤ {largest:.4g}), got {np.max(np.abs(array)):g}"
        )
    return array


#: bfloat16 keeps 8 significant bits (7 stored) and float32's exponent range.
BFLOAT16_SIGNIFICANT_BITS: int = 8
#: Largest finite bfloat16, ``(2 − 2⁻⁷)·2¹²⁷``; smallest positive (subnormal) one, ``2⁻¹³³``.
BFLOAT16_MAX: float = (2.0 - 2.0**-7) * 2.0**127
BFLOAT16_TINY: float = 2.0**-133


def round_to_bfloat16(values: Any) -> np.ndarray:
    """Round each value to the nearest bfloat16 (ties to even); return them as float64.

    NumPy has float16 but no bfloat16, so this emulates it: a bfloat16 has
    float32's exponent range and 8 significant bits, so near ``x`` (with
    ``2^e ≤ |x| < 2^(e+1)``) its numbers are ``2^(e−7)`` apart (never less
    than ``2⁻¹³³``, the subnormal spacing). The value is rounded once, straight
    from float64, to the nearest multiple of that spacing, ties to the even
    multiple, as hardware does; beyond ``BFLOAT16_MAX`` (after rounding) it
    becomes ±infinity. NaN and ±infinity pass through. Every result is an exact
    bfloat16 value held in a float64. For example integers are exact up to
    ``2⁸ = 256``; ``257 → 256``, and ``8190`` and ``8191`` both give ``8192``.

    Against torch (2.13): on float32 inputs this equals ``tensor.to(torch.bfloat16)``
    bit for bit, ties, subnormals, ±inf and NaN included. On a float64 tensor torch rounds
    twice, through float32, and differs from this single rounding by one bfloat16 step in
    about 7 of 10⁶ random values; to emulate torch there, round ``x.astype(np.float32)``.
    The course emulates torch's float32 path (model weights and ``inv_freq`` are float32).
    Introduced in notebook 08 (notebook 07 uses it once, to store a table in
    bfloat16).

    Parameters
    ----------
    values : array_like of real numbers
        Any shape.

    Returns
    -------
    np.ndarray
        Float64 array of the shape of ``values``.
    """

    array = check_real_array(values, "values")
    check_table_size(array.shape, np.float64, name="rounded values")
    with np.errstate(over="ignore", invalid="ignore"):
        _, exponent = np.frexp(array)  # |x| = m·2^exponent with 0.5 ≤ m < 1
        spacing = np.ldexp(1.0, np.maximum(exponent - BFLOAT16_SIGNIFICANT_BITS, -133))
        rounded = np.rint(array / spacing) * spacing  # exact division and product: one rounding
        rounded = np.where(np.abs(rounded) > BFLOAT16_MAX, np.copysign(np.inf, array), rounded)
        rounded = np.where(np.isfinite(array), rounded, array)
    return rounded.astype(np.float64, copy=False)
