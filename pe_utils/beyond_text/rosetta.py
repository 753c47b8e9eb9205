"""A Rosetta stone (notebook 12 §5): each library's table as the settings of ``sinusoid_table`` (a
``Convention``), named in ``ROSETTA``; ``rosetta_encoding`` builds any of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._checks import (
    check_choice,
    check_count,
    check_finite_array,
    check_positive_count,
    check_positive_real,
)
from .sinusoid_table import (
    FREQUENCY_GRIDS,
    NESTING_NAMES,
    NESTINGS,
    geometric_frequencies,
    octave_frequencies,
    sinusoid_table,
)


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


#: The axes a convention can name: ``p`` a token position, ``t`` a diffusion timestep, and the
#: column ``x``, row ``y`` and depth ``z`` of a grid or a point. Each is a column of
#: :func:`rosetta_encoding`'s ``positions``.
_AXIS_COLUMNS = {"p": 0, "t": 0, "x": 0, "y": 1, "z": 2}


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
    when the convention is made, names, types and ranges (``base`` finite and above 1, scales
    finite and positive): a wrong one raises ``ValueError`` naming the field and what it allows.
    Introduced in notebook 12.
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
            if not (math.isfinite(self.base) and self.base > 1.0):
                _refuse("base", "a finite float greater than 1", self.base)
            if not math.isfinite(self.shift):
                _refuse("shift", "a finite float", self.shift)
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
        if not isinstance(self.angle_scale, float) or not (
            math.isfinite(self.angle_scale) and self.angle_scale > 0
        ):
            _refuse("angle_scale", "a finite positive float", self.angle_scale)
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
        for scale in ("base_size", "interpolation_scale"):
            value = getattr(self, scale)
            if value is not None and not (isinstance(value, float) and math.isfinite(value) and value > 0):
                _refuse(scale, "a finite positive float (or None)", value)
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
