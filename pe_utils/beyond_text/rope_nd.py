"""RoPE on several axes (notebook 12 §4): the phase of each pair is linear in the position vector, so scores
depend on the offset vector alone; axial, mixed and multimodal (M-RoPE) frequencies.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import (
    _is_integer,
    check_base,
    check_finite_array,
    check_layout,
    check_positive_count,
    check_rows,
    check_table_size,
)
from ._arguments import _check_angles, _check_bool, _check_multiple_of_4, _largest
from .sinusoid_table import geometric_frequencies


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
