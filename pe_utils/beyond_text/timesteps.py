"""Diffusion timesteps (notebook 12 §1): diffusers' ``timestep_embedding``, which reproduces DDPM
(denominator ``h − 1``, ``[sin | cos]``) and guided-diffusion / Stable Diffusion (denominator ``h``,
``[cos | sin]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import (
    check_finite_array,
    check_positive_real,
    check_table_size,
)
from ._arguments import _check_bool, _check_dim, _check_grid, _check_real
from .sinusoid_table import sinusoid_table


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
