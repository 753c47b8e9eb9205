"""Image grids (notebook 12 §2): half the channels per axis (``sincos_2d``); a 2-D shift is a block-diagonal
rotation (``grid_shift_matrix``).
"""

from __future__ import annotations

import numpy as np

from .._checks import (
    check_base,
    check_choice,
    check_count,
    check_scalar,
    check_table_size,
)
from ._arguments import _check_multiple_of_4
from .rosetta import ROSETTA, _position_scales
from .sinusoid_table import _check_nesting, _table_shift_matrix, geometric_frequencies, sinusoid_table

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
