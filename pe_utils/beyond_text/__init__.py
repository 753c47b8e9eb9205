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

from .fourier import (
    fourier_features,
    gaussian_fourier_matrix,
    nerf_encoding,
    ridge_predict,
)
from .images import (
    SINCOS_2D_CONVENTIONS,
    grid_positions,
    grid_shift_matrix,
    sincos_2d,
)
from .rope_nd import (
    axial_rope_frequencies,
    mixed_rope_frequencies,
    mrope_frequencies,
    rope_nd,
)
from .rosetta import (
    ROSETTA,
    Convention,
    rosetta_encoding,
)
from .sinusoid_table import (
    FREQUENCY_GRIDS,
    NESTING_NAMES,
    NESTINGS,
    geometric_frequencies,
    octave_frequencies,
    sinusoid_table,
)
from .timesteps import (
    timestep_embedding,
    timestep_frequencies,
)

__all__ = [
    "Convention",
    "FREQUENCY_GRIDS",
    "NESTINGS",
    "NESTING_NAMES",
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
