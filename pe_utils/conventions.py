"""Sinusoidal conventions found in real libraries (notebook 07).

Implementations of "the" sinusoidal encoding differ in three choices:

- **layout**: interleaved ``[sin, cos, sin, cos, …]`` (the paper) or
  concatenated halves ``[sin …, cos …]``;
- **denominator** of the frequencies: ``ω_i = base^(−i/D)`` with
  ``D = d/2`` (the paper: ``base^(−2i/d)``) or ``D = d/2 − 1`` (lowest
  frequency exactly ``1/base``);
- **first position**: the token at sequence index ``t`` is encoded with
  ``p = first_position + t``.

:data:`CONVENTIONS` names the combinations that notebook 07 cites, each with
the source it was checked against. Only even ``d`` is handled here; the
libraries also differ in what they do for odd ``d``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._checks import (
    LAYOUTS,
    check_base,
    check_choice,
    check_count,
    check_d_model,
    check_float_dtype,
    check_layout,
    check_matrix,
    check_rows,
    check_scalar,
    check_table_size,
)
from .encoding import _direct_table, frequencies, layout_permutation

#: The two frequency denominators: ``ω_i = base^(−i/D)``, ``D = d/2`` or ``d/2 − 1``.
DENOMINATORS: tuple[str, ...] = ("d/2", "d/2-1")


@dataclass(frozen=True)
class TableConvention:
    """One named way of building the sinusoidal table.

    Attributes
    ----------
    name : str
    layout : {"interleaved", "concatenated"}
    denominator : {"d/2", "d/2-1"}
    first_position : int
        Position ``p`` of the first real token.
    source : str
        Where the convention was read (repository, file, symbol).
    """

    name: str
    layout: str
    denominator: str
    first_position: int
    source: str


#: The named conventions of notebook 07, in the order ``detect_convention`` tries them.
CONVENTIONS: dict[str, TableConvention] = {
    convention.name: convention
    for convention in (
        TableConvention(
            "vaswani2017",
            "interleaved",
            "d/2",
            0,
            "Vaswani et al. 2017, section 3.5; e.g. pytorch/tutorials "
            "beginner_source/transformer_tutorial.py PositionalEncoding",
        ),
        TableConvention(
            "tensor2tensor",
            "concatenated",
            "d/2-1",
            0,
            "tensorflow/tensor2tensor tensor2tensor/layers/common_attention.py get_timing_signal_1d",
        ),
        TableConvention(
            "fairseq",
            "concatenated",
            "d/2-1",
            2,
            "facebookresearch/fairseq fairseq/modules/sinusoidal_positional_embedding.py "
            "with make_positions (fairseq/utils.py); default padding index 1, so p starts at 2",
        ),
        TableConvention(
            "marian",
            "concatenated",
            "d/2",
            0,
            "huggingface/transformers src/transformers/models/marian/modeling_marian.py "
            "MarianSinusoidalPositionalEmbedding",
        ),
    )
}


def _check_convention(name: Any, argument: str = "name") -> TableConvention:
    """Return the :class:`TableConvention` called ``name``; list the choices otherwise."""
    return CONVENTIONS[check_choice(name, tuple(CONVENTIONS), argument)]


def frequencies_variant(d_model: int, *, denominator: str = "d/2", base: float = 10000.0) -> np.ndarray:
    """Return ``ω_i = base^(−i/D)`` for ``i = 0 … d/2 − 1``, ``D = d/2`` or ``d/2 − 1``.

    ``D = d/2`` gives the paper's ``base^(−2i/d)`` (equal to
    :func:`pe_utils.frequencies`); ``D = d/2 − 1`` makes the last frequency
    exactly ``1/base`` and needs ``d ≥ 4``. Introduced in notebook 07.
    """
    d_model = check_d_model(d_model)
    denominator = check_choice(denominator, DENOMINATORS, "denominator")
    base = check_base(base)
    if denominator == "d/2":
        return frequencies(d_model, base)
    half = d_model // 2
    if half < 2:
        raise ValueError(f'd_model must be at least 4 for denominator "d/2-1" (d/2 − 1 > 0), got {d_model}')
    return base ** (-np.arange(half, dtype=np.float64) / (half - 1))


def sinusoidal_pe_variant(
    n_positions: int,
    d_model: int,
    *,
    layout: str = "interleaved",
    denominator: str = "d/2",
    first_position: int = 0,
    base: float = 10000.0,
    dtype: Any = np.float64,
) -> np.ndarray:
    """Return the ``(n, d)`` table of any convention: row ``t`` encodes ``p = first_position + t``.

    Entry ``sin(p ω_i)`` and ``cos(p ω_i)`` with ``ω_i = base^(−i/D)``
    (:func:`frequencies_variant`), placed by ``layout``. Angles are computed in
    float64 and the result is cast to ``dtype``. Introduced in notebook 07.

    Parameters
    ----------
    n_positions : int
        Number of rows, ``n ≥ 0``.
    d_model : int
        Positive and even (at least 4 for ``denominator="d/2-1"``).
    layout : {"interleaved", "concatenated"}
    denominator : {"d/2", "d/2-1"}
    first_position : int
        Non-negative; fairseq's tokens start at ``padding_idx + 1``.
    base : float
        Greater than 1.
    dtype : floating dtype of the result.

    Returns
    -------
    np.ndarray
        ``(n_positions, d_model)`` array of ``dtype``.
    """
    n_positions = check_count(n_positions, "n_positions")
    d_model = check_d_model(d_model)
    layout = check_layout(layout)
    denominator = check_choice(denominator, DENOMINATORS, "denominator")
    first_position = check_count(first_position, "first_position")
    base = check_base(base)
    dtype = check_float_dtype(dtype)
    check_table_size((n_positions, d_model), np.float64, name="encoding table")
    omega = frequencies_variant(d_model, denominator=denominator, base=base)
    positions = first_position + np.arange(n_positions, dtype=np.float64)
    return _direct_table(positions, omega, layout, dtype)


def convention_table(name: str, n_positions: int, d_model: int, *, dtype: Any = np.float64) -> np.ndarray:
    """Return the encodings of the tokens at sequence indices ``0 … n−1`` under convention ``name``.

    ``name`` is a key of :data:`CONVENTIONS`. For ``"fairseq"`` row ``t`` is
    the library's table row ``t + 2`` (padding tokens use a zeroed row, not
    part of this table). Introduced in notebook 07.
    """
    convention = _check_convention(name)
    return sinusoidal_pe_variant(
        n_positions,
        d_model,
        layout=convention.layout,
        denominator=convention.denominator,
        first_position=convention.first_position,
        dtype=dtype,
    )


def convert_layout(table: Any, from_layout: str, to_layout: str) -> np.ndarray:
    """Reorder the columns of ``table`` from one layout to the other.

    Interleaved → concatenated is ``table[..., order]`` with
    ``order = layout_permutation(d)``; the way back uses ``argsort(order)``.
    Only the column order changes: the frequencies stay what they were.
    Introduced in notebook 07.

    Parameters
    ----------
    table : array, shape (..., d)
        ``d`` positive and even.
    from_layout, to_layout : {"interleaved", "concatenated"}

    Returns
    -------
    np.ndarray
        A new array of the same shape and dtype.
    """
    from_layout = check_layout(from_layout, "from_layout")
    to_layout = check_layout(to_layout, "to_layout")
    _, d_model = check_rows(table, "table")
    table = np.asarray(table)
    if from_layout == to_layout:
        return table.copy()
    order = layout_permutation(d_model)
    if from_layout == "concatenated":
        order = np.argsort(order)
    return table[..., order]


def detect_convention(
    table: Any,
    *,
    atol: float = 1e-3,
    candidates: Any = None,
) -> tuple[str, ...]:
    """Return the names of the conventions whose table equals ``table`` within ``atol``.

    Each candidate builds ``convention_table(name, n, d)`` for the shape of
    ``table`` and is kept when every entry is within ``atol``. An empty tuple
    means no named convention matches; more than one name means the table is
    too small to tell them apart. The default ``atol`` accepts tables stored
    in float16 (rounding error at most ``2⁻¹²``). Introduced in notebook 07.

    Parameters
    ----------
    table : array, shape (n, d)
    atol : float
        Positive absolute tolerance.
    candidates : sequence of str, optional
        Names to try; all of :data:`CONVENTIONS` by default.
    """
    table = check_matrix(table, "table")
    n_positions, d_model = table.shape
    check_d_model(d_model, name="table.shape[1] (d_model)")
    atol_value = check_scalar(atol, "atol")
    if atol_value <= 0:
        raise ValueError(f"atol must be a positive number, got {atol}")
    if candidates is None:
        candidates = tuple(CONVENTIONS)
    elif isinstance(candidates, str):
        raise TypeError("candidates must be a sequence of convention names, got a single string")
    conventions = [_check_convention(name, "candidates") for name in candidates]
    matches = []
    for convention in conventions:
        if convention.denominator == "d/2-1" and d_model < 4:
            continue
        reference = convention_table(convention.name, n_positions, d_model)
        if np.all(np.abs(reference - table) <= atol_value):
            matches.append(convention.name)
    return tuple(matches)


__all__ = [
    "CONVENTIONS",
    "DENOMINATORS",
    "LAYOUTS",
    "TableConvention",
    "convention_table",
    "convert_layout",
    "detect_convention",
    "frequencies_variant",
    "sinusoidal_pe_variant",
]
