"""Which RoPE frequencies a model uses, and which a length needs (notebook 13).

Three published computations on the frequency grid ``ω_i = base^(−2i/d)``:

- **p-RoPE** (Barbero et al. 2024, arXiv:2410.06205, §6.1 and App. D): keep the
  fastest ``K = ⌊p·d/2⌋`` pairs with their usual frequencies and leave the
  slowest ``d/2 − K`` unrotated (``ω_i = 0``). The grid is cut, not respaced:
  pair ``i < K`` keeps ``base^(−2i/d)`` with the whole head's ``d``.
  :func:`p_rope_frequencies`.
- **The critical dimension** (Liu et al. 2023, arXiv:2310.05209; read from the
  authors' README, ``OpenLMLab/scaling-rope`` at commit ``101b93b``, Lemma 1 and
  eq. 13): the dimensions whose pair completes a whole turn within the
  pre-training length, ``λ_i = 2π/ω_i ≤ T_train``. :func:`critical_dimension`.
- **The smallest base for a length** (Men et al. 2024, arXiv:2405.14591v1,
  eqs. 9–11): ``B_{m,θ} = Σ_i cos(m ω_i)``, which is notebook 05's profile
  ``f(m) = PE(p)·PE(p+m)``, must stay ``≥ 0`` for every offset
  ``m = 0 … L``. That holds on a union of separate windows of bases, not on a
  half-line, so the smallest base is found by checking every candidate of a
  grid, never by bisection. :func:`first_negative_offset`, :func:`smallest_base`.

Introduced in notebook 13.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import (
    check_count,
    check_d_model,
    check_finite_array,
    check_positive_count,
    check_positive_real,
    check_proportion,
    check_table_size,
)
from .encoding import frequencies, wavelengths
from .similarity import similarity_profile

#: Offsets per row of a block of the profile scan.
_BLOCK: int = 128
#: Largest matrix product of the scan, rows × _BLOCK × d: below OpenBLAS's threshold for threads,
#: which here cost far more CPU time than they save.
_PRODUCT: int = 2**17
#: Values of ``B`` closer to 0 than this are recomputed one cosine at a time (their sign decides).
_RECHECK: float = 1e-8
#: The most offsets checked per base: 10⁸ take seconds to tens of seconds for one base; more would
#: look like a hang.
MAX_OFFSET: int = 10**8
#: The most terms ``cos(m ω_i)`` one call may sum (bases × offsets × pairs, as if no base stopped
#: early): about a minute at the 1.5·10⁹ terms per second measured on one core at d = 128.
MAX_TERMS: int = 10**11


def _check_max_offset(value: Any, name: str) -> int:
    value = check_count(value, name)
    if value > MAX_OFFSET:
        raise ValueError(
            f"{name} must be at most {MAX_OFFSET:,} (each offset costs d/2 cosines per base), got {value:,}"
        )
    return value


def rotated_pairs(d_model: int, proportion: float) -> int:
    """Return ``K``, the number of pairs p-RoPE rotates: ``int(p · d // 2)``.

    The rule of the paper's listing ``apply_p_rope`` (Barbero et al. 2024,
    App. D, ``rope_angles = int(rope_percentage * head_dim // 2)``) and of
    Gemma's ``apply_rope(..., rope_proportion)``, evaluated the same way, in
    floating point: ``⌊p·d/2⌋`` for the usual shares (``p = 0.25, 0.5, 0.75``
    with ``d`` a multiple of 8). Introduced in notebook 13.

    Parameters
    ----------
    d_model : int
        Positive and even: the head dimension ``d``.
    proportion : float
        ``p`` in ``[0, 1]``.
    """
    d_model = check_d_model(d_model)
    proportion = check_proportion(proportion)
    return int(proportion * d_model // 2)  # check_proportion keeps p ≤ 1, so at most d // 2


def p_rope_frequencies(d_model: int, proportion: float, *, base: float = 10000.0) -> np.ndarray:
    """Return p-RoPE's frequencies: ``ω_i = base^(−2i/d)`` for ``i < K``, ``0`` for ``i ≥ K``.

    ``K = rotated_pairs(d_model, proportion)`` (Barbero et al. 2024,
    arXiv:2410.06205, §6.1 and App. D). The kept pairs are the fastest, with
    the frequencies of a full ``d``-dimensional RoPE (the grid is cut, not
    respaced as in GPT-NeoX's partial rotary); a pair with ``ω_i = 0`` turns
    by ``p·0 = 0`` at every position: unrotated. ``p = 1`` is RoPE
    (:func:`pe_utils.frequencies`), ``p = 0`` no positions at all.
    Introduced in notebook 13.

    Parameters
    ----------
    d_model : int
        Positive and even.
    proportion : float
        ``p`` in ``[0, 1]``: the share of the pairs that rotate.
    base : float
        Greater than 1.

    Returns
    -------
    np.ndarray
        ``(d_model // 2,)`` float64 array.
    """
    kept = rotated_pairs(d_model, proportion)
    omega = frequencies(d_model, base)
    omega[kept:] = 0.0
    return omega


def critical_dimension(d_model: int, train_length: float, *, base: float = 10000.0) -> int:
    """Return Liu et al.'s critical dimension: ``d_extra = 2 · #{i : λ_i ≤ T_train}``.

    The dimensions (two per pair) whose wavelength ``λ_i = 2π·base^(2i/d)``
    fits within the pre-training length ``T_train``: those pairs met every
    angle of their circle in training. Lemma 1 (eq. 12) of Liu et al. 2023,
    arXiv:2310.05209, read from the authors' README (``OpenLMLab/scaling-rope``,
    commit ``101b93b``); its closed form, eq. 13, is
    ``2⌈(d/2)·log_base(T_train/2π)⌉`` (written there with base 10000), the
    same number unless ``(d/2)·log_base(T_train/2π)`` is a whole number, where
    the count is 2 larger. Llama 2 (``d = 128``, base 10000, ``T_train = 4096``):
    92. Introduced in notebook 13.

    Parameters
    ----------
    d_model : int
        Positive and even: the head dimension.
    train_length : float
        ``T_train``, positive.
    base : float
        Greater than 1.

    Returns
    -------
    int
        Even, from 0 to ``d_model``.
    """
    d_model = check_d_model(d_model)
    train_length = check_positive_real(train_length, "train_length")
    return 2 * int(np.count_nonzero(wavelengths(d_model, base) <= train_length))


def _first_negative(d_model: int, base: float, max_offset: int) -> int:
    """Smallest ``m`` in ``0 … max_offset`` with ``Σ_i cos(m ω_i) < 0``, or ``max_offset + 1``.

    Offsets come in blocks of ``rows × block`` (``block = min(_BLOCK, max_offset + 1)``), ``rows``
    doubling from 1 up to ``_PRODUCT / (block·d)``: ``cos((s + j)ω) = cos sω cos jω − sin sω sin jω``
    gives every offset of a block from ``rows + block`` cosines and sines per pair, in one matrix
    product small enough that OpenBLAS starts no threads. Values within
    ``_RECHECK`` of zero, whose sign the product's rounding could decide, are recomputed by
    :func:`pe_utils.similarity_profile`, the plain sum of cosines.
    """
    omega = frequencies(d_model, base)
    pairs, block = omega.size, min(_BLOCK, max_offset + 1)
    steps = np.multiply.outer(np.arange(block, dtype=np.float64), omega)  # (j, pairs)
    step_table = np.empty((2 * pairs, block))  # (2 pairs, j)
    step_table[:pairs], step_table[pairs:] = np.cos(steps).T, np.sin(steps).T
    del steps
    start, rows, most_rows = 0, 1, max(1, _PRODUCT // (block * d_model))
    while start <= max_offset:
        rows = min(rows, -(-(max_offset + 1 - start) // block))
        starts = np.multiply.outer(start + block * np.arange(rows, dtype=np.float64), omega)
        # cos(a + b) = cos a cos b − sin a sin b, summed over pairs: one product, (rows, j)
        profile = np.concatenate([np.cos(starts), -np.sin(starts)], axis=1) @ step_table
        profile = profile.reshape(-1)[: max_offset + 1 - start]  # m = start + index
        near_zero = np.flatnonzero(np.abs(profile) < _RECHECK)
        if near_zero.size:
            profile[near_zero] = similarity_profile(start + near_zero, d_model, base=base)
        negative = np.flatnonzero(profile < 0)
        if negative.size:
            return start + int(negative[0])
        start, rows = start + rows * block, min(2 * rows, most_rows)
    return max_offset + 1


def _check_scan_size(d_model: int, n_bases: int, max_offset: int, bases: str, offsets: str) -> None:
    """Refuse a scan whose arrays or whose number of terms is too large, naming the arguments.

    The working arrays are about four tables of ``min(_BLOCK, max_offset + 1) × d_model`` (the steps,
    their cosines and sines, the table they fill); the terms are ``n_bases × (max_offset + 1) × d/2``.
    """
    check_table_size((4 * min(_BLOCK, max_offset + 1), d_model), np.float64, name="the scan's working arrays")
    terms = n_bases * (max_offset + 1) * (d_model // 2)
    if terms > MAX_TERMS:
        raise ValueError(
            f"{bases} × ({offsets} + 1) × d_model/2 must be at most {MAX_TERMS:.0e} terms (about a minute), "
            f"got {n_bases:,} × {max_offset + 1:,} × {d_model // 2:,} = {terms:.1e}: "
            f"give fewer {bases} or a smaller {offsets}"
        )


def _check_bases(bases: Any, name: str) -> np.ndarray:
    """``bases`` as a float64 array if every entry is a finite number greater than 1."""
    array = check_finite_array(bases, name)
    if np.any(array <= 1.0):
        raise ValueError(f"{name} must be numbers greater than 1, got {float(array.min())}")
    return array


def first_negative_offset(d_model: int, bases: Any, *, max_offset: int) -> np.ndarray:
    """Return, for each base, the first offset ``m ≤ max_offset`` with ``B_{m,θ} < 0``.

    ``B_{m,θ} = Σ_{i=0}^{d/2−1} cos(m ω_i)`` (Men et al. 2024, arXiv:2405.14591,
    eq. 9; notebook 05's profile ``f(m)``). Where ``B_m ≥ 0`` for every
    ``m ≤ max_offset`` the entry is ``max_offset + 1``. So a base meets Men et
    al.'s condition for a length ``L ≤ max_offset`` (eq. 11: ``B_m ≥ 0`` for
    every ``m ∈ [0, L]``) exactly when its entry is greater than ``L``, and the
    entry minus 1 is their ``L_θ`` (eq. 10) when it is at most ``max_offset``.
    Every offset is checked (none is skipped: ``B`` can dip below zero for one
    or two offsets). Introduced in notebook 13.

    Parameters
    ----------
    d_model : int
        Positive and even.
    bases : array_like of float
        Each finite and greater than 1.
    max_offset : int
        The largest offset checked, from 0 to :data:`MAX_OFFSET`.

    Returns
    -------
    np.ndarray
        int64 array of the shape of ``bases``.

    Raises
    ------
    ValueError
        Also, before any work, if ``bases.size × (max_offset + 1) × d/2`` exceeds
        :data:`MAX_TERMS`, or the scan's working arrays would exceed ``pe_utils.MAX_TABLE_BYTES``.
    """
    d_model = check_d_model(d_model)
    max_offset = _check_max_offset(max_offset, "max_offset")
    array = _check_bases(bases, "bases")
    _check_scan_size(d_model, array.size, max_offset, "bases", "max_offset")
    first = [_first_negative(d_model, float(base), max_offset) for base in array.reshape(-1)]
    return np.array(first, dtype=np.int64).reshape(array.shape)


def smallest_base(length: int, d_model: int, candidates: Any) -> float:
    """Return the smallest candidate base with ``B_{m,θ} ≥ 0`` for every ``m = 0 … L``.

    Men et al.'s lower bound on the base (arXiv:2405.14591, eq. 11), searched
    over a given grid: the set of bases that meet the condition is not an
    interval, so a larger base than one that works can fail, and the answer
    depends on the grid (Men et al. do not state theirs). Candidates are
    checked from the smallest up, and the first that meets the condition is
    returned. Introduced in notebook 13.

    Parameters
    ----------
    length : int
        ``L``, from 1 to :data:`MAX_OFFSET`.
    d_model : int
        Positive and even.
    candidates : array_like of float
        Bases to try, each finite and greater than 1; at least one.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If no candidate meets the condition; before any work, if
        ``len(candidates) × (L + 1) × d/2`` exceeds :data:`MAX_TERMS` (the most every candidate
        could cost), or the scan's working arrays would exceed ``pe_utils.MAX_TABLE_BYTES``.
    """
    length = check_positive_count(length, "length")
    length = _check_max_offset(length, "length")
    d_model = check_d_model(d_model)
    values = _check_bases(candidates, "candidates").reshape(-1).tolist()
    if not values:
        raise ValueError("candidates must hold at least one base, got none")
    _check_scan_size(d_model, len(values), length, "candidates", "length")
    for base in sorted(values):
        if _first_negative(d_model, base, length) > length:
            return base
    raise ValueError(
        f"candidates must include a base whose profile stays ≥ 0 up to L = {length}; none of the "
        f"{len(values)} given does (largest {max(values):g}): try larger bases"
    )


__all__ = [
    "MAX_OFFSET",
    "MAX_TERMS",
    "critical_dimension",
    "first_negative_offset",
    "p_rope_frequencies",
    "rotated_pairs",
    "smallest_base",
]
