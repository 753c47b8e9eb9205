"""One parametrised table of sinusoids (notebook 12 §5): positions on one or more axes, frequencies on a
geometric or octave grid, and the order (``nesting``) in which axis, sin/cos and frequency make the
channels; ``sinusoid_table`` reproduces every additive convention of notebooks 07 and 12.
"""

from __future__ import annotations

import itertools
import math
import numbers
from typing import Any

import numpy as np

from .._checks import (
    check_base,
    check_choice,
    check_count,
    check_finite_array,
    check_positive_count,
    check_table_size,
)
from ._arguments import _check_angles, _check_bool, _check_grid, _check_real, _largest

#: The three indices of a channel, which :func:`sinusoid_table`'s ``nesting`` orders from the
#: outermost to the innermost: the axis, the trigonometric function (sin or cos) and the frequency.
NESTING_NAMES: tuple[str, ...] = ("axis", "trig", "frequency")


#: Every valid ``nesting``: each order of :data:`NESTING_NAMES`.
NESTINGS: tuple[tuple[str, ...], ...] = tuple(itertools.permutations(NESTING_NAMES))


def geometric_frequencies(n_frequencies: int, *, base: float = 10000.0, shift: float = 0.0) -> np.ndarray:
    """Return ``ω_i = base^(−i/(m − shift))``, ``i = 0 … m − 1``, ``m = n_frequencies``.

    ``shift = 0`` is the paper's grid (notebook 03, with ``m = d/2``); ``shift = 1`` is the
    endpoint-inclusive grid of tensor2tensor, DDPM and big_vision, whose last frequency is
    exactly ``1/base``. Introduced in notebook 12.
    """
    n_frequencies = check_positive_count(n_frequencies, "n_frequencies")
    base = check_base(base)
    shift = _check_real(shift, "shift")
    _check_grid(
        n_frequencies,
        shift,
        base,
        names=("n_frequencies", "shift", "base"),
        zero_hint="Use shift 0 (the paper's grid) or 1 (tensor2tensor's)",
    )
    check_table_size((n_frequencies,), np.float64, name="frequencies")
    return base ** (-np.arange(n_frequencies, dtype=np.float64) / (n_frequencies - shift))


def octave_frequencies(n_frequencies: int) -> np.ndarray:
    """Return NeRF's octaves ``2^0, 2^1, …, 2^(L−1)`` (``L = n_frequencies``, at most 60).

    The cap is about precision, not range (``2^59`` is exact): beyond ``2^53·|p|`` neighbouring
    float64 angles are more than 2 radians apart, so the sines say nothing about ``p``.
    Introduced in notebook 12.
    """
    n_frequencies = check_positive_count(n_frequencies, "n_frequencies")
    if n_frequencies > 60:
        raise ValueError(
            "n_frequencies must be at most 60: at the octave 2^59 one float64 step of a coordinate near 1 "
            f"(2^−52) is already 128 radians, so finer octaves carry no information; got {n_frequencies}"
        )
    return 2.0 ** np.arange(n_frequencies, dtype=np.float64)


def _check_nesting(nesting: Any) -> tuple[str, str, str]:
    """``nesting`` as the three names, outermost first (the axis outermost when left out)."""
    if isinstance(nesting, (tuple, list)) and all(isinstance(name, str) for name in nesting):
        names = tuple(nesting)
        if len(names) == 2 and sorted(names) == ["frequency", "trig"]:
            names = ("axis", *names)
        if sorted(names) == sorted(NESTING_NAMES):
            return names
    raise ValueError(
        "nesting must order the names 'axis', 'trig' (sin/cos) and 'frequency' from the outermost to "
        "the innermost, e.g. ('trig', 'frequency') or ('axis', 'trig', 'frequency') (axis first when "
        f"left out), got {nesting!r}"
    )


def _channel_index(n_axes: int, n_frequencies: int, nesting: tuple[str, ...], first: str) -> np.ndarray:
    """``index[t, a, i]``: the column of trig ``t`` (0 = sin, 1 = cos) of axis ``a``, frequency ``i``."""
    sizes = {"axis": n_axes, "trig": 2, "frequency": n_frequencies}
    columns = np.arange(2 * n_axes * n_frequencies).reshape([sizes[name] for name in nesting])
    index = np.transpose(columns, [nesting.index(name) for name in ("trig", "axis", "frequency")])
    return index if first == "sin" else index[::-1]


def _check_angle_scale(angle_scale: Any, n_axes: int) -> np.ndarray:
    """``angle_scale`` as ``n_axes`` finite factors: one real number for every axis, or one per axis."""
    if isinstance(angle_scale, np.ndarray) and angle_scale.ndim == 0:
        angle_scale = angle_scale.item()
    if isinstance(angle_scale, (bool, np.bool_, str, bytes)) or not (
        isinstance(angle_scale, numbers.Real) or hasattr(angle_scale, "__len__")
    ):
        raise TypeError(
            f"angle_scale must be a finite real number or one per axis ({n_axes}), got {angle_scale!r}"
        )
    if isinstance(angle_scale, numbers.Real):
        return np.full(n_axes, _check_real(angle_scale, "angle_scale"))
    scales = [_check_real(value, "angle_scale") for value in angle_scale]
    if len(scales) != n_axes:
        raise ValueError(
            f"angle_scale must hold one factor per axis: {n_axes} for positions with {n_axes} "
            f"column(s), got {len(scales)}"
        )
    return np.array(scales, dtype=np.float64)


def sinusoid_table(
    positions: Any,
    frequencies: Any,
    *,
    angle_scale: Any = 1.0,
    first: str = "sin",
    nesting: Any = ("axis", "trig", "frequency"),
    include_input: bool = False,
    pad: int = 0,
    angle_description: str = "angle_scale · positions · frequencies",
) -> np.ndarray:
    """The Rosetta stone: one parametrised sin/cos table that reproduces every additive convention.

    ``positions`` is ``(n,)`` (one axis) or ``(n, A)``: column ``a`` is the coordinate on axis
    ``a``, in the order the convention puts its blocks. Every entry is ``sin`` or ``cos`` of the
    angle ``angle_scale · positions[:, a] · frequencies[i]`` (``angle_scale[a]`` if one is given
    per axis); ``nesting`` orders the three indices of the channels from the outermost to the
    innermost: ``"axis"``, ``"trig"`` (which of sin and cos, ``first`` first) and
    ``"frequency"``. So for one axis ``("trig", "frequency")`` is ``[sin … | cos …]`` and
    ``("frequency", "trig")`` the interleaved ``[sin, cos, sin, cos, …]``; for two axes
    ``("axis", "trig", "frequency")`` is MAE's per-axis blocks and ``("trig", "axis",
    "frequency")`` timm's ``[sin y | sin x | cos y | cos x]``; NeRF's code is ``("frequency",
    "trig", "axis")``. ``include_input`` puts the positions first (NeRF); ``pad`` appends
    zero columns (odd ``dim`` in DDPM and diffusers). :data:`ROSETTA` names the settings of each
    library. Introduced in notebook 12.

    Parameters
    ----------
    positions : array_like, shape (n,) or (n, A)
    frequencies : array_like, shape (m,)
        The same frequencies on every axis (:func:`geometric_frequencies`,
        :func:`octave_frequencies`).
    angle_scale : float or sequence of A floats
        Multiplies every angle: π for NeRF's paper, diffusers' ``scale``. A sequence gives one
        factor per axis (column of ``positions``): diffusers' 2-D table scales the column by
        ``base_size/width`` and the row by ``base_size/height`` (:func:`sincos_2d`).
    first : {"sin", "cos"}
    nesting : tuple of str
        An order of ``("axis", "trig", "frequency")`` (or of ``("trig", "frequency")``, the axis
        outermost); anything else (a string of letters too) is refused, naming the three names.
    include_input : bool
    pad : int
        Non-negative number of zero columns appended.
    angle_description : str
        How the error names the angle ``angle_scale · positions · frequencies`` if it overflows
        float64: :func:`timestep_embedding` and :func:`nerf_encoding` pass their own arguments'
        names.

    Returns
    -------
    np.ndarray
        ``(n, A·include_input + 2·A·m + pad)`` float64 array.
    """
    positions = check_finite_array(positions, "positions")
    if positions.ndim == 1:
        positions = positions[:, None]
    if positions.ndim != 2:
        raise ValueError(f"positions must have shape (n,) or (n, n_axes), got shape {positions.shape}")
    omega = check_finite_array(frequencies, "frequencies")
    if omega.ndim != 1 or omega.size == 0:
        raise ValueError(f"frequencies must be a non-empty 1-D array, got shape {omega.shape}")
    first = check_choice(first, ("sin", "cos"), "first")
    nesting = _check_nesting(nesting)
    include_input = _check_bool(include_input, "include_input")
    pad = check_count(pad, "pad")
    n, n_axes = positions.shape
    scales = _check_angle_scale(angle_scale, n_axes)
    width = n_axes * include_input + 2 * n_axes * omega.size + pad
    check_table_size((n, width), np.float64, name="table")
    factors = _largest(scales), _largest(positions), _largest(omega)
    _check_angles(
        math.prod(factors),
        f"{angle_description} (largest factors {factors[0]:g} and {factors[1]:g}, fastest frequency "
        f"{factors[2]:g})",
    )
    angles = (scales * positions)[:, :, None] * omega  # (n, a, i)
    index = _channel_index(n_axes, omega.size, nesting, first)
    body = np.empty((n, 2 * n_axes * omega.size))
    body[:, index[0]] = np.sin(angles)
    body[:, index[1]] = np.cos(angles)
    parts = ([positions] if include_input else []) + [body, np.zeros((n, pad))]
    return np.concatenate(parts, axis=1)


def _table_shift_matrix(offsets: np.ndarray, omega: np.ndarray, *, nesting: tuple[str, ...]) -> np.ndarray:
    """The rotation that moves a :func:`sinusoid_table` row (no input, no padding) by ``offsets``."""
    n_axes = offsets.size
    index = _channel_index(n_axes, omega.size, nesting, "sin")
    sines, cosines = index[0].reshape(-1), index[1].reshape(-1)
    theta = (offsets[:, None] * omega).reshape(-1)
    matrix = np.zeros((2 * n_axes * omega.size,) * 2)
    matrix[sines, sines] = np.cos(theta)
    matrix[sines, cosines] = np.sin(theta)
    matrix[cosines, sines] = -np.sin(theta)
    matrix[cosines, cosines] = np.cos(theta)
    return matrix


#: The frequency grids: :func:`geometric_frequencies` (``base``, ``shift``) or NeRF's
#: :func:`octave_frequencies`.
FREQUENCY_GRIDS: tuple[str, ...] = ("geometric", "octaves")
