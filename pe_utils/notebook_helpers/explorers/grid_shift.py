"""Notebook 12's explorer: a 2-D shift ``(k_x, k_y)`` rotates each axis block of ``sincos_2d``."""

from __future__ import annotations

from typing import Any

from ..._checks import check_base
from ._chart import (
    Explorer,
    _calc,
    _chart,
    _check_even_in,
    _check_range,
    _orbit,
    _point_and_image,
    _rotated_point,
    _slider,
    _unit_circle,
)


def grid_shift_explorer(
    d_model: int = 64,
    *,
    base: float = 10000.0,
    size: int = 8,
    patch: tuple[int, int] = (2, 5),
    shift: tuple[int, int] = (3, -2),
    pair: int = 1,
) -> Explorer:
    """Shift a patch of MAE's 2-D table by ``(k_x, k_y)`` and see each axis block rotate.

    Three panels, computed in the browser from the sliders ``k_x``, ``k_y`` (offsets, as in
    ``T_k``) and the pair ``i``: the ``size × size`` grid with the patch ``(x, y)`` (blue) and
    the shifted patch ``(x + k_x, y + k_y)`` (red); then, for the x block and the y block of
    ``sincos_2d(..., convention="mae")`` (``m = d/4`` frequencies ``ω_i = base^(−i/m)`` per axis),
    pair ``i``'s point ``(cos, sin)`` of the patch (blue) and its image by notebook 04's block
    ``[[cos θ, sin θ], [−sin θ, cos θ]]`` acting on ``(sin, cos)``, with ``θ = k_x ω_i`` (x block)
    or ``k_y ω_i`` (y block)::

        sin' =  cos θ · sin(pω_i) + sin θ · cos(pω_i)
        cos' = −sin θ · sin(pω_i) + cos θ · cos(pω_i)

    Each circle's title gives the turn ``θ`` to 3 significant digits (slow pairs turn by
    thousandths of a radian).

    The image is the point of the shifted patch: ``diag(T_{k_x}, T_{k_y})`` moves the whole row
    (``grid_shift_matrix``). Grey dots mark the points of the columns (rows) ``0 … size − 1``.
    Introduced in notebook 12 (it generalises "A 2-D shift is a block-diagonal rotation").

    Parameters
    ----------
    d_model : int
        A multiple of 4, from 4 to 256 (fixed).
    base : float
        Greater than 1 (fixed).
    size : int
        Grid side, 2 to 16.
    patch : (int, int)
        The patch ``(x, y)`` (column, row), inside the grid (fixed).
    shift : (int, int)
        Starting ``(k_x, k_y)``; the sliders keep the shifted patch inside the grid
        (``k_x`` from ``−x`` to ``size − 1 − x``, likewise ``k_y``).
    pair : int
        Starting pair ``i`` of each block, ``0 … d/4 − 1``.
    """
    d_model = _check_even_in(d_model, "d_model", 4, 256)
    if d_model % 4:
        raise ValueError(f"d_model must be a multiple of 4 (two axes, a sin and a cos each), got {d_model}")
    base = check_base(base)
    size = int(_check_range(size, "size", 2, 16, integer=True))
    m = d_model // 4
    for name, value in (("patch", patch), ("shift", shift)):
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 2:
            raise TypeError(f"{name} must be a pair of integers (x, y), got {value!r}")
    x0 = int(_check_range(patch[0], "patch[0] (x)", 0, size - 1, integer=True))
    y0 = int(_check_range(patch[1], "patch[1] (y)", 0, size - 1, integer=True))
    # The shifted patch stays on the grid.
    kx = int(_check_range(shift[0], "shift[0] (k_x)", -x0, size - 1 - x0, integer=True))
    ky = int(_check_range(shift[1], "shift[1] (k_y)", -y0, size - 1 - y0, integer=True))
    pair = int(_check_range(pair, "pair", 0, m - 1, integer=True))
    description = (
        f"A {size} by {size} grid of patches and two unit circles, with sliders for the shift k_x, k_y "
        f"and the pair i of MAE's 2-D table (d = {d_model}, {m} frequencies per axis): the patch "
        f"({x0}, {y0}) is blue and the shifted patch red on the grid; on the circles (cos across, sin "
        "up) the x block's point turns by k_x·ω_i and the y block's by k_y·ω_i, and each lands on the "
        "point of the shifted patch, as the block-diagonal rotation says."
    )
    params = [
        _slider("kx", kx, -x0, size - 1 - x0, 1, "shift k_x "),
        _slider("ky", ky, -y0, size - 1 - y0, 1, "shift k_y "),
        _slider("i", pair, 0, m - 1, 1, "pair i "),
    ]
    omega = f"pow({base!r}, -i / {m})"  # ω_i = base^(−i/m)
    scale = {"domain": [-1.45, 1.45], "nice": False, "zero": False}
    ticks = {"values": [-1, 0, 1]}

    grid = {
        "width": 200,
        "height": 200,
        "title": {"text": {"expr": f"'patch ({x0}, {y0}) → (' + ({x0} + kx) + ', ' + ({y0} + ky) + ')'"}},
        "layer": [
            {
                "data": {"sequence": {"start": 0, "stop": size * size, "as": "index"}},
                "transform": [
                    _calc(f"datum.index % {size}", "x"),
                    _calc(f"floor(datum.index / {size})", "y"),
                ],
                "mark": {"type": "square", "color": "#bbbbbb", "size": 60},
                "encoding": {
                    "x": {
                        "field": "x",
                        "type": "quantitative",
                        "title": "column x",
                        "scale": {"domain": [-0.5, size - 0.5], "nice": False},
                    },
                    "y": {
                        "field": "y",
                        "type": "quantitative",
                        "title": "row y",
                        "scale": {"domain": [-0.5, size - 0.5], "nice": False, "reverse": True},
                    },
                },
            },
            {
                "data": {"sequence": {"start": 0, "stop": 1, "as": "row"}},
                "transform": [
                    _calc(f"{x0}", "x"),
                    _calc(f"{y0}", "y"),
                    _calc(f"{x0} + kx", "x_moved"),
                    _calc(f"{y0} + ky", "y_moved"),
                ],
                "layer": [
                    {
                        "mark": {"type": "rule", "color": "#d62728", "strokeWidth": 1.5},
                        "encoding": {
                            "x": {"field": "x", "type": "quantitative"},
                            "y": {"field": "y", "type": "quantitative"},
                            "x2": {"field": "x_moved"},
                            "y2": {"field": "y_moved"},
                        },
                    },
                    {
                        "mark": {"type": "square", "color": "#1f77b4", "size": 140, "opacity": 1},
                        "encoding": {
                            "x": {"field": "x", "type": "quantitative"},
                            "y": {"field": "y", "type": "quantitative"},
                        },
                    },
                    {
                        "mark": {"type": "square", "color": "#d62728", "size": 140, "opacity": 1},
                        "encoding": {
                            "x": {"field": "x_moved", "type": "quantitative"},
                            "y": {"field": "y_moved", "type": "quantitative"},
                        },
                    },
                ],
            },
        ],
    }

    def block(axis: str, start: int, offset: str) -> dict[str, Any]:
        """One circle: pair i of the ``axis`` block, the patch's point and its image."""
        axis_x = {
            "field": "cx",
            "type": "quantitative",
            "scale": scale,
            "axis": ticks,
            "title": f"cos({axis} ωᵢ)",
        }
        axis_y = {
            "field": "sy",
            "type": "quantitative",
            "scale": scale,
            "axis": ticks,
            "title": f"sin({axis} ωᵢ)",
        }
        circle = _unit_circle(axis_x, axis_y, ("cx", "sy"))
        orbit = _orbit(size, omega, axis, ("cx", "sy"))
        point = {
            "data": {"sequence": {"start": 0, "stop": 1, "as": "row"}},
            "transform": [
                _calc(f"'{axis}'", "block"),
                _calc(f"{start}", "position"),
                _calc(offset, "offset"),
                _calc(omega, "omega"),
                *_rotated_point("datum.position", "datum.offset"),
            ],
            "layer": [
                *_point_and_image(),
            ],
        }
        # 3 significant digits: a slow pair's turn is thousandths of a radian, not "0.000"
        turn = f"format({offset} * {omega}, '.3~g')"
        title = {"text": {"expr": f"'{axis} block, pair ' + i + ': turn ' + {turn} + ' rad'"}}
        return {"width": 200, "height": 200, "title": title, "layer": [circle, orbit, point]}

    return Explorer(
        _chart(
            description,
            params,
            hconcat=[grid, block("x", x0, "kx"), block("y", y0, "ky")],
            resolve={"scale": {"x": "independent", "y": "independent"}},
        )
    )
