"""Sinusoids beyond text: timesteps, image grids, Fourier features, RoPE on several axes (notebook 12).

The same two ideas as in notebooks 03–08, read in other code bases: a table of (sin, cos)
pairs at geometric frequencies, and shifting is rotating. The sections follow the notebook:

1. **Diffusion timesteps** (:func:`timestep_embedding`): diffusers' parameters, which
   reproduce DDPM (denominator ``h − 1``, ``[sin | cos]``) and guided-diffusion / Stable
   Diffusion (denominator ``h``, ``[cos | sin]``).
2. **Image grids** (:func:`sincos_2d`, :func:`grid_shift_matrix`): half the channels per axis;
   a 2-D shift is a block-diagonal rotation. At another grid size, diffusers scales the
   positions (``sincos_2d(..., base_size=, interpolation_scale=)``).
3. **Fourier features** (:func:`nerf_encoding`, :func:`fourier_features`,
   :func:`ridge_predict`): NeRF's octaves and random Gaussian frequencies.
4. **RoPE on several axes** (:func:`rope_nd` with :func:`axial_rope_frequencies`,
   :func:`mixed_rope_frequencies`, :func:`mrope_frequencies`, bands or Qwen3-VL's interleave): the
   phase of each pair is linear in the position vector, so scores depend on the offset vector
   alone.
5. **A Rosetta stone** (:func:`sinusoid_table`, :class:`Convention`, :data:`ROSETTA`,
   :func:`rosetta_encoding`):
   one parametrised table that reproduces every additive convention above and those of
   notebook 07.

Notation (the course's): ``h = dim // 2`` (frequencies of a 1-D timestep table), ``m``
frequencies per axis of a grid, ``ω_i`` the frequency of index (pair) ``i``; ``k`` is an offset,
as in ``T_k``. Every function computes in float64, and refuses before any work an input whose
angles would overflow (NaN from ``sin(inf)``) or whose frequency grid divides by (almost) zero.
"""

from __future__ import annotations

import itertools
import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._checks import (
    _is_integer,
    check_base,
    check_choice,
    check_count,
    check_d_model,
    check_finite_array,
    check_layout,
    check_positive_count,
    check_positive_real,
    check_rows,
    check_scalar,
    check_table_size,
)

# =============================================================================================
# 1. Diffusion timesteps


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


def timestep_frequencies(
    dim: int, *, downscale_freq_shift: float = 1.0, max_period: float = 10000.0
) -> np.ndarray:
    """Return diffusers' timestep frequencies ``ω_i = max_period^(−i/(h − s))``, ``i = 0 … h − 1``.

    ``h = dim // 2`` and ``s = downscale_freq_shift``. ``s = 1`` is DDPM's grid (from
    tensor2tensor): it runs from ``ω_0 = 1`` to exactly ``ω_{h−1} = 1/max_period``. ``s = 0`` is
    guided-diffusion's and the paper's grid ``max_period^(−i/h)``, whose last frequency is
    ``max_period^(−(h−1)/h)``. Introduced in notebook 12.

    Raises
    ------
    ValueError
        If ``h − s`` is zero or within ``1e-9·h`` of it (diffusers divides 0 by 0 there and
        returns NaN in the first pair), or if ``h − s`` is so small and negative that the
        frequencies overflow float64.
    """
    dim = _check_dim(dim)
    shift = _check_real(downscale_freq_shift, "downscale_freq_shift")
    max_period = check_positive_real(max_period, "max_period")
    half = dim // 2
    _check_grid(
        half,
        shift,
        max_period,
        names=("dim // 2", "downscale_freq_shift", "max_period"),
        zero_hint="Use a larger dim or another shift (0 for guided-diffusion / Stable Diffusion)",
    )
    check_table_size((half,), np.float64, name="frequencies")
    return np.exp(-np.log(max_period) * np.arange(half, dtype=np.float64) / (half - shift))


def timestep_embedding(
    timesteps: Any,
    dim: int,
    *,
    flip_sin_to_cos: bool = False,
    downscale_freq_shift: float = 1.0,
    scale: float = 1.0,
    max_period: float = 10000.0,
) -> np.ndarray:
    """Return the sinusoidal timestep embeddings of diffusers' ``get_timestep_embedding``.

    With ``h = dim // 2``, ``ω_i = max_period^(−i/(h − s))`` (:func:`timestep_frequencies`,
    ``s = downscale_freq_shift``) and the angle ``a_i = scale · t · ω_i``::

        [sin a_0 … sin a_{h−1} | cos a_0 … cos a_{h−1}]      flip_sin_to_cos=False
        [cos a_0 … cos a_{h−1} | sin a_0 … sin a_{h−1}]      flip_sin_to_cos=True

    and, for an odd ``dim``, one zero column at the end. ``scale`` multiplies the *angle*
    (the same as scaling the timesteps), not the output. The defaults are DDPM's
    (``hojonathanho/diffusion`` ``get_timestep_embedding``); ``flip_sin_to_cos=True,
    downscale_freq_shift=0`` is guided-diffusion's ``timestep_embedding`` and Stable
    Diffusion's. Timesteps may be fractional. Source: ``huggingface/diffusers``
    ``src/diffusers/models/embeddings.py`` ``get_timestep_embedding`` (which computes in
    float32; this returns float64). The parameter names and defaults are diffusers', with two
    differences of form: the width is called ``dim`` (diffusers: ``embedding_dim``), and the
    four flags are keyword-only (diffusers also takes them by position), so a call that passes
    them by position fails here instead of meaning something else. Introduced in notebook 12.

    Parameters
    ----------
    timesteps : array_like, shape (N,)
        Finite real numbers, one per batch element.
    dim : int
        At least 2.
    flip_sin_to_cos : bool
    downscale_freq_shift : float
        ``dim // 2 − downscale_freq_shift`` must not be 0 (nor within ``1e-9·h`` of it), nor
        so small and negative that the frequencies overflow.
    scale : float
        Finite; multiplies every angle. ``|scale| · max|t| · max ω_i`` must be finite.
    max_period : float
        Positive; the slowest period is about ``2π · max_period``.

    Returns
    -------
    np.ndarray
        ``(N, dim)`` float64 array.
    """
    timesteps = check_finite_array(timesteps, "timesteps")
    if timesteps.ndim != 1:
        raise ValueError(
            f"timesteps must be a 1-D array (one timestep per batch element), got shape {timesteps.shape}"
        )
    dim = _check_dim(dim)
    flip = _check_bool(flip_sin_to_cos, "flip_sin_to_cos")
    scale = _check_real(scale, "scale")
    check_table_size((timesteps.size, dim), np.float64, name="timestep embedding")
    omega = timestep_frequencies(dim, downscale_freq_shift=downscale_freq_shift, max_period=max_period)
    return sinusoid_table(
        timesteps,
        omega,
        angle_scale=scale,
        first="cos" if flip else "sin",
        nesting=("trig", "frequency"),
        pad=dim % 2,
        angle_description="scale · timesteps · frequency",
    )


# =============================================================================================
# 2. Image grids

#: The 2-D tables :func:`sincos_2d` builds, each named after the code it was checked against.
SINCOS_2D_CONVENTIONS: tuple[str, ...] = ("mae", "big_vision", "timm", "mocov3")


def grid_positions(height: int, width: int) -> np.ndarray:
    """Return the ``(height·width, 2)`` positions ``[x, y]`` of a grid, row by row.

    Row ``r = y·width + x`` holds the column index ``x`` and the row index ``y`` of patch
    ``r`` (the token order of a ViT: row 0 from left to right, then row 1, …).
    Introduced in notebook 12.
    """
    height = check_count(height, "height")
    width = check_count(width, "width")
    check_table_size((height * width, 2), np.float64, name="grid positions")
    rows, cols = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
    return np.stack([cols.reshape(-1), rows.reshape(-1)], axis=1).astype(np.float64)


def _check_multiple_of_4(value: Any, name: str) -> int:
    """``value`` as an int if it is a positive multiple of 4 (a sin and a cos per frequency, two axes)."""
    value = check_d_model(value, name)
    if value % 4:
        raise ValueError(
            f"{name} must be a positive multiple of 4 (a sin and a cos per frequency, for two axes), "
            f"got {value}"
        )
    return value


def _grid_setting(convention: str, d_model: int, base: float) -> tuple[np.ndarray, str, str]:
    """Frequencies, axis order (``"xy"`` or ``"yx"``) and nesting of a 2-D convention (:data:`ROSETTA`)."""
    setting = ROSETTA[convention]
    m = d_model // 4
    if setting.shift == 1 and m < 2:
        raise ValueError(
            f'd_model must be at least 8 for convention "{convention}" (it divides by d_model/4 − 1), '
            f"got {d_model}"
        )
    axes = "".join(setting.axes)
    return geometric_frequencies(m, base=base, shift=setting.shift), axes, _check_nesting(setting.nesting)


def sincos_2d(
    height: int,
    width: int,
    d_model: int,
    *,
    base: float = 10000.0,
    convention: str = "mae",
    base_size: float | None = None,
    interpolation_scale: float = 1.0,
) -> np.ndarray:
    """Return the 2-D sin-cos table of a ``height × width`` grid of patches, row by row.

    Half the channels follow the column index ``x``, half the row index ``y``, with
    ``m = d_model/4`` frequencies per axis. Row ``r = y·width + x`` of the result (MAE's token
    order). With ``ω_i = base^(−i/m)``, ``i = 0 … m − 1`` (the libraries call ``base``
    ``temperature``):

    ``"mae"`` (facebookresearch/mae ``util/pos_embed.py``, ``get_2d_sincos_pos_embed``)
        ``[sin xω | cos xω | sin yω | cos yω]``: the first half, which MAE names ``emb_h``,
        encodes the *column* ``x`` (``meshgrid(w, h)``). MAE's helper takes one int
        ``grid_size``: square grids only, and only those are checked against it. For
        ``height ≠ width`` this keeps MAE's meshgrid and row order with the integer positions
        ``x`` and ``y`` (the table recomputed for that grid).
    ``"big_vision"`` (google-research/big_vision ``big_vision/models/vit.py``, ``posemb_sincos_2d``)
        the same layout with ``ω_i = base^(−i/(m − 1))``: the last frequency is exactly
        ``1/base``. Needs ``d_model ≥ 8``.
    ``"timm"`` (huggingface/pytorch-image-models ``timm/layers/pos_embed_sincos.py``,
        ``build_sincos2d_pos_embed`` with its defaults)
        ``[sin yω | sin xω | cos yω | cos xω]``: all sines first, the row before the column.
    ``"mocov3"`` (facebookresearch/moco-v3 ``vits.py``, ``build_2d_sincos_position_embedding``)
        ``[sin yω | cos yω | sin xω | cos xω]``: the block MoCo v3 names ``w`` encodes the
        row (``torch.meshgrid`` with ``'ij'`` indexing). Square grids only, as in the source.

    ``base_size`` and ``interpolation_scale`` are diffusers' options (huggingface/diffusers
    ``src/diffusers/models/embeddings.py``, ``get_2d_sincos_pos_embed(embed_dim, grid_size,
    ..., interpolation_scale=1.0, base_size=16)``, read at diffusers 0.42.1). diffusers keeps
    MAE's layout (``"mae"``) but takes the positions ``arange(n) / (n / base_size) /
    interpolation_scale`` on each axis: the column ``x · base_size / (width · s)`` and the row
    ``y · base_size / (height · s)``, ``s = interpolation_scale``. So a grid of any size spans
    the same range of angles, and the two axes of a non-square grid are scaled differently.
    With ``base_size=None`` (the default) the positions are the integers, divided by
    ``interpolation_scale``; with ``base_size = height = width`` and ``s = 1`` this is MAE's
    table. Implemented as a per-axis ``angle_scale`` of :func:`sinusoid_table`, for every
    convention (only ``"mae"`` is diffusers').

    Introduced in notebook 12.

    Returns
    -------
    np.ndarray
        ``(height·width, d_model)`` float64 array.
    """
    height = check_count(height, "height")
    width = check_count(width, "width")
    d_model = _check_multiple_of_4(d_model, "d_model")
    base = check_base(base)
    convention = check_choice(convention, SINCOS_2D_CONVENTIONS, "convention")
    if convention == "mocov3" and height != width:
        raise ValueError(
            f'convention "mocov3" is defined for square grids only (its meshgrid pairs the two axes '
            f"as if height = width), got height={height}, width={width}"
        )
    scale_x, scale_y = _position_scales(height, width, base_size, interpolation_scale)
    check_table_size((height * width, d_model), np.float64, name="2-D table")
    omega, axes, nesting = _grid_setting(convention, d_model, base)
    positions = grid_positions(height, width)
    scales = [scale_x, scale_y]
    if axes == "yx":
        positions, scales = positions[:, ::-1], scales[::-1]
    return sinusoid_table(positions, omega, angle_scale=scales, nesting=nesting)


def _position_scales(
    height: int, width: int, base_size: Any, interpolation_scale: Any
) -> tuple[float, float]:
    """diffusers' factors ``base_size/(n·s)`` of the column and the row (``1/s`` without ``base_size``)."""
    interpolation_scale = check_positive_real(interpolation_scale, "interpolation_scale")
    if base_size is None:
        return 1.0 / interpolation_scale, 1.0 / interpolation_scale
    base_size = check_positive_real(base_size, "base_size")
    if height == 0 or width == 0:
        return 1.0, 1.0  # an empty grid: no position to scale (diffusers divides by zero)
    scales = base_size / (width * interpolation_scale), base_size / (height * interpolation_scale)
    if not all(math.isfinite(scale) for scale in scales):
        raise ValueError(
            f"base_size / (n · interpolation_scale) overflows float64 (base_size = {base_size:g}, "
            f"interpolation_scale = {interpolation_scale:g}): use a larger interpolation_scale"
        )
    return scales


def grid_shift_matrix(
    shift_x: float,
    shift_y: float,
    d_model: int,
    *,
    base: float = 10000.0,
    convention: str = "mae",
) -> np.ndarray:
    """Return the ``d × d`` rotation ``T`` with ``PE(x + k_x, y + k_y) = T @ PE(x, y)`` for every patch.

    ``PE`` is a row of :func:`sincos_2d` with the same ``convention``. For each frequency
    ``ω_i`` of each axis, the (sin, cos) columns of that axis turn by ``θ = k_x ω_i`` (x axis)
    or ``k_y ω_i`` (y axis) with notebook 04's block ``[[cos θ, sin θ], [−sin θ, cos θ]]``.
    For ``"mae"`` and ``"big_vision"`` ``T`` is block-diagonal: notebook 04's ``T_{k_x}`` on
    the first half (concatenated layout, ``d = d_model/2``) and ``T_{k_y}`` on the second.
    Introduced in notebook 12.
    """
    shift_x = check_scalar(shift_x, "shift_x")
    shift_y = check_scalar(shift_y, "shift_y")
    d_model = _check_multiple_of_4(d_model, "d_model")
    base = check_base(base)
    convention = check_choice(convention, SINCOS_2D_CONVENTIONS, "convention")
    check_table_size((d_model, d_model), np.float64, name="shift matrix")
    omega, axes, nesting = _grid_setting(convention, d_model, base)
    offsets = np.array([shift_x, shift_y] if axes == "xy" else [shift_y, shift_x])
    return _table_shift_matrix(offsets, omega, nesting=nesting)


# =============================================================================================
# 3. Fourier features


def nerf_encoding(
    points: Any,
    n_frequencies: int,
    *,
    include_input: bool = True,
    pi: bool = False,
) -> np.ndarray:
    """Return NeRF's positional encoding of points, in the channel order of NeRF's code.

    For points ``p`` with ``c`` coordinates (the last axis) and ``L = n_frequencies``
    octaves ``2^0, 2^1, …, 2^(L−1)``::

        [p, sin(2^0 p), cos(2^0 p), sin(2^1 p), cos(2^1 p), …]

    where each entry is a block of ``c`` channels (one per coordinate); ``c + 2cL`` channels
    with the input, ``2cL`` without. The code (bmild/nerf ``run_nerf_helpers.py``,
    ``Embedder`` and ``get_embedder``) has no π and includes the input; ``pi=True`` multiplies
    every angle by π, as equation 4 of the paper writes. The paper writes γ for one coordinate;
    :data:`ROSETTA` ``"nerf_paper"`` concatenates γ of each coordinate in turn. Introduced in
    notebook 12.

    Parameters
    ----------
    points : array, shape (..., c)
        Finite real coordinates; ``c ≥ 1``.
    n_frequencies : int
        ``L ≥ 1`` (NeRF's ``multires``: 10 for positions, 4 for directions).
    include_input : bool
    pi : bool

    Returns
    -------
    np.ndarray
        Float64 array of shape ``(..., c·(2L + include_input))``.
    """
    points = check_finite_array(points, "points")
    if points.ndim == 0 or points.shape[-1] == 0:
        raise ValueError(f"points must have a last axis of coordinates (c ≥ 1), got shape {points.shape}")
    octaves = octave_frequencies(n_frequencies)  # at most 60
    include_input = _check_bool(include_input, "include_input")
    pi = _check_bool(pi, "pi")
    coords = points.shape[-1]
    check_table_size(points.shape[:-1] + (coords * (2 * n_frequencies + 1),), np.float64, name="encoding")
    scale = np.pi if pi else 1.0
    flat = points.reshape(-1, coords)
    table = sinusoid_table(
        flat,
        octaves,
        angle_scale=scale,
        nesting=("frequency", "trig", "axis"),
        include_input=include_input,
        angle_description=f"{'π · ' if pi else ''}points · octaves up to 2^{n_frequencies - 1}",
    )
    return table.reshape(points.shape[:-1] + (table.shape[-1],))


def gaussian_fourier_matrix(n_features: int, n_inputs: int, sigma: float, *, rng: Any) -> np.ndarray:
    """Return a ``(n_features, n_inputs)`` matrix ``B`` with entries drawn from ``N(0, σ²)``.

    Tancik et al. 2020 (tancik/fourier-feature-networks ``Demo.ipynb``): ``B = σ · G`` with
    ``G`` standard normal, so one draw of ``G`` serves every ``σ``. ``rng`` is a
    ``np.random.Generator`` or an integer seed. Introduced in notebook 12.
    """
    n_features = check_positive_count(n_features, "n_features")
    n_inputs = check_positive_count(n_inputs, "n_inputs")
    sigma = check_positive_real(sigma, "sigma")
    if _is_integer(rng):
        rng = np.random.default_rng(int(rng))
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator or an integer seed, got {rng!r}")
    check_table_size((n_features, n_inputs), np.float64, name="frequency matrix")
    return sigma * rng.standard_normal((n_features, n_inputs))


def fourier_features(x: Any, frequency_matrix: Any) -> np.ndarray:
    """Return Tancik et al.'s random Fourier features ``[sin(2π x Bᵀ) | cos(2π x Bᵀ)]``.

    ``x`` has shape ``(..., c)`` and ``B`` (``frequency_matrix``) shape ``(m, c)``; row ``j``
    of ``B`` is a frequency vector in cycles per unit of ``x``. The result has ``2m`` channels,
    sines first as in their code (``input_mapping`` in tancik/fourier-feature-networks
    ``Demo.ipynb``); the paper and that notebook's text write ``[cos | sin]``, a permutation.
    Introduced in notebook 12.
    """
    x = check_finite_array(x, "x")
    matrix = check_finite_array(frequency_matrix, "frequency_matrix")
    if matrix.ndim != 2:
        raise ValueError(f"frequency_matrix must be a 2-D array (m, c), got shape {matrix.shape}")
    if x.ndim == 0 or x.shape[-1] != matrix.shape[1]:
        raise ValueError(
            f"x must have a last axis of {matrix.shape[1]} coordinates to match frequency_matrix "
            f"of shape {matrix.shape}, got shape {x.shape}"
        )
    check_table_size(x.shape[:-1] + (2 * matrix.shape[0],), np.float64, name="features")
    _check_angles(2.0 * np.pi * matrix.shape[1] * _largest(x) * _largest(matrix), "2π · x · frequency_matrix")
    angles = 2.0 * np.pi * (x @ matrix.T)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)


def ridge_predict(train_features: Any, train_targets: Any, test_features: Any, *, ridge: float) -> np.ndarray:
    """Fit ``w = argmin ‖Φw − y‖² + λ‖w‖²`` on the training rows and return ``Φ_test w``.

    ``Φ`` is ``train_features`` ``(n, m)``, ``y`` is ``train_targets`` ``(n,)`` and
    ``λ = ridge > 0``. Solved in whichever of the two equal forms is smaller:
    ``w = (ΦᵀΦ + λI)⁻¹ Φᵀy`` (``m × m``) or ``w = Φᵀ(ΦΦᵀ + λI)⁻¹ y`` (``n × n``).
    Introduced in notebook 12.
    """
    train = check_finite_array(train_features, "train_features")
    targets = check_finite_array(train_targets, "train_targets")
    test = check_finite_array(test_features, "test_features")
    ridge = check_positive_real(ridge, "ridge")
    if train.ndim != 2:
        raise ValueError(f"train_features must be a 2-D array (n, m), got shape {train.shape}")
    if targets.shape != (train.shape[0],):
        raise ValueError(
            f"train_targets must hold one value per training row, shape ({train.shape[0]},), "
            f"got shape {targets.shape}"
        )
    if test.ndim != 2 or test.shape[1] != train.shape[1]:
        raise ValueError(
            f"test_features must be a 2-D array with {train.shape[1]} columns like train_features, "
            f"got shape {test.shape}"
        )
    n, m = train.shape
    check_table_size((min(n, m), min(n, m)), np.float64, name="ridge system")
    if m <= n:
        weights = np.linalg.solve(train.T @ train + ridge * np.eye(m), train.T @ targets)
    else:
        weights = train.T @ np.linalg.solve(train @ train.T + ridge * np.eye(n), targets)
    return test @ weights


# =============================================================================================
# 4. RoPE on several axes


def rope_nd(x: Any, positions: Any, frequency_matrix: Any, *, layout: str = "interleaved") -> np.ndarray:
    """Rotate each pair ``i`` of each row of ``x`` by the phase ``φ_i = Σ_a pos_a · F[a, i]``.

    ``positions[..., a]`` is the row's coordinate on axis ``a`` and ``F = frequency_matrix``
    (shape ``(..., n_axes, d/2)``, broadcast against the rows) gives each pair's frequency on
    each axis. The rotation is :func:`pe_utils.rope`'s (counter-clockwise; pairs ``(2i, 2i+1)``
    for ``layout="interleaved"``, ``(i, i + d/2)`` for ``"concatenated"``, i.e. ``rotate_half``).
    Because ``φ`` is linear in the position vector, ``rope_nd(a, p)·rope_nd(b, q)`` depends on
    ``q − p`` alone, for any ``F``. One axis with ``F[0] = ω`` is 1-D RoPE; axial 2-D RoPE,
    RoPE-Mixed and M-RoPE differ only in ``F`` (:func:`axial_rope_frequencies`,
    :func:`mixed_rope_frequencies`, :func:`mrope_frequencies`). Introduced in notebook 12.

    Parameters
    ----------
    x : array, shape (..., d)
        ``d`` positive and even.
    positions : array, shape (..., n_axes)
        Finite; ``positions[..., 0]`` broadcasts against ``x.shape[:-1]``.
    frequency_matrix : array, shape (..., n_axes, d/2)
    layout : {"interleaved", "concatenated"}

    Returns
    -------
    np.ndarray
        Float64 array of the shape of ``x``.
    """
    x, d_model = check_rows(x, "x")
    positions = check_finite_array(positions, "positions")
    matrix = check_finite_array(frequency_matrix, "frequency_matrix")
    layout = check_layout(layout)
    half = d_model // 2
    if matrix.ndim < 2 or matrix.shape[-1] != half:
        raise ValueError(
            f"frequency_matrix must have shape (..., n_axes, {half}) (one frequency per pair and axis "
            f"for x with d = {d_model}), got shape {matrix.shape}"
        )
    n_axes = matrix.shape[-2]
    if positions.ndim == 0 or positions.shape[-1] != n_axes:
        raise ValueError(
            f"positions must have a last axis of {n_axes} coordinates (one per axis of frequency_matrix), "
            f"got shape {positions.shape}"
        )
    rows_shape = x.shape[:-1]
    try:
        phase_shape = np.broadcast_shapes(positions.shape[:-1], matrix.shape[:-2])
        fits = np.broadcast_shapes(rows_shape, phase_shape) == rows_shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"positions of shape {positions.shape} and frequency_matrix of shape {matrix.shape} do not "
            f"match x of shape {x.shape}: expected one position vector per row of x, rows {rows_shape}"
        )
    check_table_size(x.shape, np.float64, name="rotated rows")
    _check_angles(n_axes * _largest(positions) * _largest(matrix), "positions · frequency_matrix")
    phases = np.sum(positions[..., :, None] * matrix, axis=-2)
    cos, sin = np.cos(phases), np.sin(phases)
    if layout == "interleaved":
        first, second = slice(0, None, 2), slice(1, None, 2)
    else:
        first, second = slice(0, half), slice(half, None)
    u, v = x[..., first], x[..., second]
    out = np.empty(x.shape)
    out[..., first] = cos * u - sin * v
    out[..., second] = sin * u + cos * v
    return out


def axial_rope_frequencies(head_dim: int, *, base: float = 100.0) -> np.ndarray:
    """Return the ``(2, head_dim/2)`` frequency matrix of axial 2-D RoPE (naver-ai/rope-vit).

    With ``m = head_dim/4`` and ``ω_i = base^(−i/m)``: pairs ``0 … m − 1`` turn with the column
    ``x`` (row 0 of the matrix holds ``ω``, row 1 zeros), pairs ``m … 2m − 1`` with the row ``y``.
    Use with ``rope_nd(..., positions=[x, y], layout="interleaved")``. rope-vit's axial models
    use ``base = 100`` (``models/vit_rope.py``, ``compute_axial_cis``). Introduced in notebook 12.
    """
    head_dim = _check_multiple_of_4(head_dim, "head_dim")
    base = check_base(base)
    m = head_dim // 4
    omega = geometric_frequencies(m, base=base)
    matrix = np.zeros((2, 2 * m))
    matrix[0, :m] = omega
    matrix[1, m:] = omega
    return matrix


def mixed_rope_frequencies(head_dim: int, n_heads: int, *, base: float = 10.0, rng: Any) -> np.ndarray:
    """Return RoPE-Mixed's initial frequency vectors, shape ``(n_heads, 2, head_dim/2)``.

    For each head one angle ``α ~ U(0, 2π)``; with ``m = head_dim/4`` and magnitudes
    ``μ_i = base^(−i/m)``, pair ``i < m`` gets the frequency vector ``μ_i (cos α, sin α)`` and
    pair ``m + i`` gets ``μ_i (−sin α, cos α)`` (naver-ai/rope-vit ``models/vit_rope.py``,
    ``init_random_2d_freqs``; ``base = 10`` in its mixed models). ``[h, 0, i]`` is the
    x-frequency and ``[h, 1, i]`` the y-frequency of pair ``i`` in head ``h``. In training these
    are learnable parameters: :func:`rope_nd` keeps scores relative for any values. ``rng`` is a
    ``np.random.Generator`` or an integer seed. Introduced in notebook 12.
    """
    head_dim = _check_multiple_of_4(head_dim, "head_dim")
    n_heads = check_positive_count(n_heads, "n_heads")
    base = check_base(base)
    if _is_integer(rng):
        rng = np.random.default_rng(int(rng))
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator or an integer seed, got {rng!r}")
    check_table_size((n_heads, 2, head_dim // 2), np.float64, name="frequency vectors")
    m = head_dim // 4
    magnitude = geometric_frequencies(m, base=base)
    alpha = rng.uniform(0.0, 2.0 * np.pi, size=n_heads)[:, None]
    out = np.empty((n_heads, 2, 2 * m))
    out[:, 0, :m], out[:, 1, :m] = magnitude * np.cos(alpha), magnitude * np.sin(alpha)
    out[:, 0, m:], out[:, 1, m:] = -magnitude * np.sin(alpha), magnitude * np.cos(alpha)
    return out


def mrope_frequencies(
    head_dim: int, mrope_section: Any, *, base: float = 1e6, interleaved: bool = False
) -> np.ndarray:
    """Return the ``(3, head_dim/2)`` frequency matrix of M-RoPE (Qwen2-VL's bands, or Qwen3-VL's interleave).

    ``ω_i = base^(−2i/head_dim)`` as in 1-D RoPE; each pair keeps its own frequency and turns
    with one axis only (row 0 time ``t``, row 1 height ``h``, row 2 width ``w``);
    ``mrope_section = [s_t, s_h, s_w]`` sums to ``head_dim/2`` and says how many pairs each axis
    gets. Use with ``rope_nd(..., positions=[t, h, w], layout="concatenated")`` (Hugging Face's
    ``rotate_half``).

    ``interleaved=False`` (Qwen2-VL, Qwen2.5-VL): contiguous bands, pairs ``0 … s_t − 1`` to
    time, the next ``s_h`` to height, the last ``s_w`` to width, so time gets the fastest pairs
    and width the slowest. Source: huggingface/transformers
    ``src/transformers/models/qwen2_vl/modeling_qwen2_vl.py``, ``apply_multimodal_rotary_pos_emb``
    (``mrope_section * 2``, chunk ``i`` from axis ``i % 3``), read at release 4.46.3 and at commit
    ``00b676f8``. Release 5.24.0 removed that function: the same selection happens in
    ``Qwen2VLRotaryEmbedding.recomposition_frequencies``, followed by the plain
    ``apply_rotary_pos_emb``; the numbers are the same.

    ``interleaved=True`` (Qwen3-VL, config key ``mrope_interleaved``): the axes take turns,
    ``t, h, w, t, h, w, …``. Pair ``j`` turns with height if ``j % 3 = 1`` and
    ``j < 3·s_h``, with width if ``j % 3 = 2`` and ``j < 3·s_w``, and with time otherwise, so
    every axis gets fast and slow pairs. Source: transformers 5.24.0
    ``src/transformers/models/qwen3_vl/modeling_qwen3_vl.py``, ``recomposition_frequencies``
    (start from the time angles, then overwrite ``slice(offset, 3·s, 3)`` with height's,
    ``offset = 1``, and width's, ``offset = 2``). It needs ``3·s_h − 1 ≤ head_dim/2`` and
    ``3·s_w ≤ head_dim/2`` so that each slice holds exactly ``s_h`` and ``s_w`` pairs.

    ``base`` defaults to Qwen2-VL's ``rope_theta``, 1 000 000 (``configuration_qwen2_vl.py``),
    not 1-D RoPE's usual 10000 (pass ``base=1e4`` for that). Introduced in notebook 12.
    """
    head_dim = check_positive_count(head_dim, "head_dim")
    if head_dim % 2:
        raise ValueError(f"head_dim must be even (one pair per two channels), got {head_dim}")
    base = check_base(base)
    interleaved = _check_bool(interleaved, "interleaved")
    if isinstance(mrope_section, (str, bytes)) or not hasattr(mrope_section, "__len__"):
        raise TypeError(f"mrope_section must be a list of three counts [t, h, w], got {mrope_section!r}")
    sections = list(mrope_section)
    if len(sections) != 3 or not all(_is_integer(s) and s >= 0 for s in sections):
        raise ValueError(
            f"mrope_section must be three non-negative integers [t, h, w], got {mrope_section!r}"
        )
    half = head_dim // 2
    if sum(sections) != half:
        raise ValueError(
            f"mrope_section must sum to head_dim/2 = {half} (one axis per pair), "
            f"got {list(mrope_section)} summing to {sum(sections)}"
        )
    sections = [int(count) for count in sections]
    if interleaved and (3 * sections[1] - 1 > half or 3 * sections[2] > half):
        raise ValueError(
            f"mrope_section = {sections} cannot be interleaved in head_dim/2 = {half} pairs: the height "
            f"pairs 1, 4, … and the width pairs 2, 5, … need 3·s_h − 1 ≤ {half} and 3·s_w ≤ {half}"
        )
    check_table_size((3, head_dim // 2), np.float64, name="frequency matrix")
    omega = base ** (-np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)
    if interleaved:
        axis = np.zeros(half, dtype=int)  # time, unless height or width overwrites the pair
        for row, offset in ((1, 1), (2, 2)):
            axis[offset : 3 * sections[row] : 3] = row
    else:
        axis = np.repeat(np.arange(3), sections)
    matrix = np.zeros((3, half))
    matrix[axis, np.arange(half)] = omega
    return matrix


# =============================================================================================
# 5. A Rosetta stone

#: The three indices of a channel, which :func:`sinusoid_table`'s ``nesting`` orders from the
#: outermost to the innermost: the axis, the trigonometric function (sin or cos) and the frequency.
NESTING_NAMES: tuple[str, ...] = ("axis", "trig", "frequency")
#: Every valid ``nesting``: each order of :data:`NESTING_NAMES`.
NESTINGS: tuple[tuple[str, ...], ...] = tuple(itertools.permutations(NESTING_NAMES))
#: The one-letter shorthand :func:`sinusoid_table` also accepts (``"ati"`` for the order above).
_NESTING_LETTERS = {"axis": "a", "trig": "t", "frequency": "i"}


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


def _check_nesting(nesting: Any) -> str:
    """``nesting`` as the internal letters (``"ati"`` …): names in order, or their first letters."""
    if isinstance(nesting, (tuple, list)) and all(isinstance(name, str) for name in nesting):
        if len(nesting) == 2 and sorted(nesting) == ["frequency", "trig"]:
            nesting = ("axis", *nesting)
        if sorted(nesting) == sorted(NESTING_NAMES):
            return "".join(_NESTING_LETTERS[name] for name in nesting)
    elif isinstance(nesting, str):
        if len(nesting) == 2 and sorted(nesting) == ["i", "t"]:
            nesting = "a" + nesting
        if sorted(nesting) == ["a", "i", "t"]:
            return nesting
    raise ValueError(
        "nesting must order the names 'axis', 'trig' (sin/cos) and 'frequency' from the outermost to "
        "the innermost, e.g. ('trig', 'frequency') or ('axis', 'trig', 'frequency') (axis first when "
        f"left out), or their first letters ('ti', 'ati'; i for frequency), got {nesting!r}"
    )


def _channel_index(n_axes: int, n_frequencies: int, nesting: str, first: str) -> np.ndarray:
    """``index[t, a, i]``: the column of trig ``t`` (0 = sin, 1 = cos) of axis ``a``, frequency ``i``."""
    sizes = {"a": n_axes, "t": 2, "i": n_frequencies}
    columns = np.arange(2 * n_axes * n_frequencies).reshape([sizes[letter] for letter in nesting])
    index = np.transpose(columns, [nesting.index(letter) for letter in "tai"])
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
    "trig", "axis")``. The first letters (``"ti"``, ``"ati"``, ``i`` for the frequency) are
    accepted as a shorthand. ``include_input`` puts the positions first (NeRF); ``pad`` appends
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
        outermost), or the same as a string of first letters (``"ati"``, ``"ti"``).
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


def _table_shift_matrix(offsets: np.ndarray, omega: np.ndarray, *, nesting: str) -> np.ndarray:
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


#: The axes a convention can name: ``p`` a token position, ``t`` a diffusion timestep, and the
#: column ``x``, row ``y`` and depth ``z`` of a grid or a point. Each is a column of
#: :func:`rosetta_encoding`'s ``positions``.
_AXIS_COLUMNS = {"p": 0, "t": 0, "x": 0, "y": 1, "z": 2}
#: The frequency grids: :func:`geometric_frequencies` (``base``, ``shift``) or NeRF's
#: :func:`octave_frequencies`.
FREQUENCY_GRIDS: tuple[str, ...] = ("geometric", "octaves")


def _refuse(field_name: str, allowed: str, value: Any) -> None:
    raise ValueError(f"Convention.{field_name} must be {allowed}, got {value!r}")


@dataclass(frozen=True)
class Convention:
    """The settings of :func:`sinusoid_table` that reproduce one library's table.

    ``axes`` names the position columns in block order (``("x", "y")``: the column ``x`` of a
    grid, then the row ``y``; one of ``p``, ``t``, ``x``, ``y``, ``z`` each). ``grid`` is
    ``"geometric"`` (with ``base`` and ``shift``) or ``"octaves"`` (neither). ``nesting`` orders
    ``"axis"``, ``"trig"`` and ``"frequency"`` from the outermost to the innermost (the axis may
    be left out for one axis). ``pad_odd`` appends a zero column for an odd ``d_model``.
    ``base_size`` (diffusers' 2-D table, with ``interpolation_scale``) scales each axis's angles
    by ``base_size / n / interpolation_scale``, ``n`` the grid's size along that axis. ``call``
    names the library's own function and the values of its own parameters that give this table;
    ``source`` the code (or paper) it was checked against in notebook 12. Every field is checked
    when the convention is made: a wrong name raises ``ValueError`` naming the field and the
    allowed values. Introduced in notebook 12.
    """

    axes: tuple[str, ...]
    grid: str
    nesting: tuple[str, ...]
    call: str
    source: str
    base: float | None = None
    shift: float | None = None
    first: str = "sin"
    angle_scale: float = 1.0
    include_input: bool = False
    pad_odd: bool = False
    base_size: float | None = None
    interpolation_scale: float | None = None

    def __post_init__(self) -> None:
        axes = self.axes
        if (
            not isinstance(axes, tuple)
            or not 1 <= len(axes) <= 3
            or len(set(axes)) != len(axes)
            or any(axis not in _AXIS_COLUMNS for axis in axes)
        ):
            _refuse(
                "axes", "a tuple of 1 to 3 different names among " + ", ".join(map(repr, _AXIS_COLUMNS)), axes
            )
        if self.grid not in FREQUENCY_GRIDS:
            _refuse("grid", "one of " + ", ".join(map(repr, FREQUENCY_GRIDS)), self.grid)
        if self.grid == "geometric":
            if not isinstance(self.base, float) or not isinstance(self.shift, float):
                _refuse("base and shift", 'floats for grid "geometric"', (self.base, self.shift))
        elif self.base is not None or self.shift is not None:
            _refuse("base and shift", 'None for grid "octaves"', (self.base, self.shift))
        nestings = NESTINGS + ((("trig", "frequency"), ("frequency", "trig")) if len(axes) == 1 else ())
        if not isinstance(self.nesting, tuple) or self.nesting not in nestings:
            _refuse(
                "nesting",
                "an order of "
                + ", ".join(map(repr, NESTING_NAMES))
                + (" (or of 'trig' and 'frequency', for one axis)" if len(axes) == 1 else ""),
                self.nesting,
            )
        if self.first not in ("sin", "cos"):
            _refuse("first", "'sin' or 'cos'", self.first)
        if not isinstance(self.angle_scale, float) or not self.angle_scale > 0:
            _refuse("angle_scale", "a positive float", self.angle_scale)
        for flag in ("include_input", "pad_odd"):
            if not isinstance(getattr(self, flag), bool):
                _refuse(flag, "True or False", getattr(self, flag))
        if (self.base_size is None) != (self.interpolation_scale is None) or (
            self.base_size is not None and len(axes) != 2
        ):
            _refuse(
                "base_size and interpolation_scale",
                "both None, or both floats for two axes",
                (self.base_size, self.interpolation_scale),
            )
        for text in ("call", "source"):
            if not isinstance(getattr(self, text), str) or not getattr(self, text):
                _refuse(text, "a non-empty string", getattr(self, text))


#: Each library's :class:`Convention` (see :func:`rosetta_encoding`), by name.
ROSETTA: dict[str, Convention] = {
    "vaswani2017": Convention(
        axes=("p",),
        grid="geometric",
        base=10000.0,
        shift=0.0,
        nesting=("frequency", "trig"),
        call="PE(p, 2i) = sin(p/10000^(2i/d)), PE(p, 2i+1) = cos(…)",
        source="Vaswani et al. 2017, section 3.5 (notebook 03)",
    ),
    "tensor2tensor": Convention(
        axes=("p",),
        grid="geometric",
        base=10000.0,
        shift=1.0,
        nesting=("trig", "frequency"),
        pad_odd=True,
        call="get_timing_signal_1d(min_timescale=1.0, max_timescale=1.0e4)",
        source="tensorflow/tensor2tensor common_attention.py get_timing_signal_1d",
    ),
    "ddpm": Convention(
        axes=("t",),
        grid="geometric",
        base=10000.0,
        shift=1.0,
        nesting=("trig", "frequency"),
        pad_odd=True,
        call="get_timestep_embedding(timesteps, embedding_dim): its defaults in DDPM and diffusers",
        source="hojonathanho/diffusion diffusion_tf/nn.py get_timestep_embedding",
    ),
    "guided_diffusion": Convention(
        axes=("t",),
        grid="geometric",
        base=10000.0,
        shift=0.0,
        nesting=("trig", "frequency"),
        first="cos",
        pad_odd=True,
        call="timestep_embedding(timesteps, dim, max_period=10000)",
        source="openai/guided-diffusion guided_diffusion/nn.py timestep_embedding",
    ),
    "stable_diffusion": Convention(
        axes=("t",),
        grid="geometric",
        base=10000.0,
        shift=0.0,
        nesting=("trig", "frequency"),
        first="cos",
        pad_odd=True,
        call="diffusers: flip_sin_to_cos=True, downscale_freq_shift=0",
        source="huggingface/diffusers get_timestep_embedding with the flags of UNet2DConditionModel "
        "(= guided-diffusion's function in CompVis' and Stability AI's code)",
    ),
    "marian": Convention(
        axes=("p",),
        grid="geometric",
        base=10000.0,
        shift=0.0,
        nesting=("trig", "frequency"),
        call="MarianSinusoidalPositionalEmbedding(num_positions, embedding_dim)",
        source="huggingface/transformers MarianSinusoidalPositionalEmbedding (notebook 07)",
    ),
    "mae": Convention(
        axes=("x", "y"),
        grid="geometric",
        base=10000.0,
        shift=0.0,
        nesting=("axis", "trig", "frequency"),
        call="get_2d_sincos_pos_embed(embed_dim, grid_size)",
        source="facebookresearch/mae util/pos_embed.py get_2d_sincos_pos_embed",
    ),
    "diffusers_2d": Convention(
        axes=("x", "y"),
        grid="geometric",
        base=10000.0,
        shift=0.0,
        nesting=("axis", "trig", "frequency"),
        base_size=16.0,
        interpolation_scale=1.0,
        call="get_2d_sincos_pos_embed(embed_dim, (h, w)), base_size=16 by default",
        source="huggingface/diffusers src/diffusers/models/embeddings.py get_2d_sincos_pos_embed (0.42.1): "
        "MAE's layout at positions x·base_size/width and y·base_size/height",
    ),
    "big_vision": Convention(
        axes=("x", "y"),
        grid="geometric",
        base=10000.0,
        shift=1.0,
        nesting=("axis", "trig", "frequency"),
        call="posemb_sincos_2d(h, w, width, temperature=10_000.)",
        source="google-research/big_vision big_vision/models/vit.py posemb_sincos_2d",
    ),
    "timm": Convention(
        axes=("y", "x"),
        grid="geometric",
        base=10000.0,
        shift=0.0,
        nesting=("trig", "axis", "frequency"),
        call="build_sincos2d_pos_embed(temperature=10000., interleave_sin_cos=False)",
        source="huggingface/pytorch-image-models timm/layers/pos_embed_sincos.py build_sincos2d_pos_embed",
    ),
    "mocov3": Convention(
        axes=("y", "x"),
        grid="geometric",
        base=10000.0,
        shift=0.0,
        nesting=("axis", "trig", "frequency"),
        call="build_2d_sincos_position_embedding(temperature=10000.)",
        source="facebookresearch/moco-v3 vits.py build_2d_sincos_position_embedding",
    ),
    "nerf": Convention(
        axes=("x", "y", "z"),
        grid="octaves",
        nesting=("frequency", "trig", "axis"),
        include_input=True,
        call="get_embedder(multires): include_input=True, log_sampling=True",
        source="bmild/nerf run_nerf_helpers.py Embedder, get_embedder",
    ),
    "nerf_paper": Convention(
        axes=("x", "y", "z"),
        grid="octaves",
        nesting=("axis", "frequency", "trig"),
        angle_scale=float(np.pi),
        call="γ(p) of equation 4, for each coordinate in turn",
        source="Mildenhall et al. 2020, equation 4 (γ of each coordinate in turn)",
    ),
}


def rosetta_encoding(name: str, positions: Any, d_model: int, *, grid_shape: Any = None) -> np.ndarray:
    """Return the table of convention ``name`` (a key of :data:`ROSETTA`) at ``positions``.

    ``positions`` is ``(n,)`` for the 1-D conventions (positions ``p`` or timesteps ``t``),
    ``(n, 2)`` with columns ``[x, y]`` (column, row; :func:`grid_positions`) for the grid
    conventions and ``(n, 3)`` with columns ``[x, y, z]`` for NeRF. The number of frequencies
    per axis follows from ``d_model``. Built by :func:`sinusoid_table` with the convention's
    settings. ``"diffusers_2d"`` also needs ``grid_shape = (height, width)``: its angle scale
    on the column is ``base_size / width`` and on the row ``base_size / height`` (divided by
    ``interpolation_scale``), so ``rosetta_encoding("diffusers_2d", grid_positions(h, w), d,
    grid_shape=(h, w))`` is ``sincos_2d(h, w, d, base_size=16)``. Introduced in notebook 12.
    """
    name = check_choice(name, tuple(ROSETTA), "name")
    setting = ROSETTA[name]
    positions = check_finite_array(positions, "positions")
    n_axes = len(setting.axes)
    needed = max(_AXIS_COLUMNS[axis] for axis in setting.axes) + 1
    if n_axes == 1:
        if positions.ndim != 1:
            raise ValueError(
                f'positions must be a 1-D array for convention "{name}", got shape {positions.shape}'
            )
    elif positions.ndim != 2 or positions.shape[1] != needed:
        raise ValueError(
            f"positions must have shape (n, {needed}) (columns {', '.join(sorted(setting.axes))}) for "
            f'convention "{name}", got shape {positions.shape}'
        )
    angle_scale: Any = setting.angle_scale
    if setting.base_size is not None:
        if isinstance(grid_shape, (str, bytes)) or not hasattr(grid_shape, "__len__") or len(grid_shape) != 2:
            raise ValueError(
                f'grid_shape must be (height, width) for convention "{name}" (it scales each axis by '
                f"base_size over the grid's size), got {grid_shape!r}"
            )
        height, width = check_count(grid_shape[0], "grid_shape"), check_count(grid_shape[1], "grid_shape")
        scale_x, scale_y = _position_scales(height, width, setting.base_size, setting.interpolation_scale)
        angle_scale = [scale_x, scale_y] if setting.axes == ("x", "y") else [scale_y, scale_x]
    elif grid_shape is not None:
        raise ValueError(f'grid_shape is used only by convention "diffusers_2d", not "{name}"; leave it out')
    d_model = check_positive_count(d_model, "d_model")
    pad = d_model % 2 if setting.pad_odd else 0
    body = d_model - pad - (n_axes if setting.include_input else 0)
    if body <= 0 or body % (2 * n_axes):
        extra = " plus the input" if setting.include_input else ""
        raise ValueError(
            f'd_model must be a multiple of {2 * n_axes}{extra} for convention "{name}" '
            f"({n_axes} axes, a sin and a cos per frequency), got {d_model}"
        )
    m = body // (2 * n_axes)
    if setting.grid == "octaves":
        omega = octave_frequencies(m)
    else:
        omega = geometric_frequencies(m, base=setting.base, shift=setting.shift)
    if n_axes > 1:
        positions = positions[:, [_AXIS_COLUMNS[axis] for axis in setting.axes]]
    return sinusoid_table(
        positions,
        omega,
        angle_scale=angle_scale,
        first=setting.first,
        nesting=setting.nesting,
        include_input=setting.include_input,
        pad=pad,
    )


__all__ = [
    "FREQUENCY_GRIDS",
    "NESTINGS",
    "NESTING_NAMES",
    "Convention",
    "ROSETTA",
    "SINCOS_2D_CONVENTIONS",
    "axial_rope_frequencies",
    "fourier_features",
    "gaussian_fourier_matrix",
    "geometric_frequencies",
    "grid_positions",
    "grid_shift_matrix",
    "mixed_rope_frequencies",
    "mrope_frequencies",
    "nerf_encoding",
    "octave_frequencies",
    "ridge_predict",
    "rope_nd",
    "rosetta_encoding",
    "sincos_2d",
    "sinusoid_table",
    "timestep_embedding",
    "timestep_frequencies",
]
