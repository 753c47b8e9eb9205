"""Fourier features (notebook 12 §3): NeRF's octaves (``nerf_encoding``), random Gaussian frequencies
(``gaussian_fourier_matrix``, ``fourier_features``) and the ridge regression that compares them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import (
    _is_integer,
    check_finite_array,
    check_positive_count,
    check_positive_real,
    check_table_size,
)
from ._arguments import _check_angles, _check_bool, _largest
from .sinusoid_table import octave_frequencies, sinusoid_table


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
