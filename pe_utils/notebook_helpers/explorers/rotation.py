"""Notebook 04's explorer: one pair's point and its image by ``T_k``, with ``k``, ``p`` and the pair ``i`` as
sliders.
"""

from __future__ import annotations

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


def rotation_explorer(
    d_model: int = 16,
    pair: int = 1,
    position: int = 2,
    offset: int = 3,
    *,
    base: float = 10000.0,
    max_offset: int = 30,
    orbit: int = 20,
) -> Explorer:
    """One pair's point ``(cos pω_i, sin pω_i)`` and its image after ``T_k``, with sliders.

    Drawn as in notebooks 03 and 04: ``x = cos pω_i`` (dimension ``2i+1``) across,
    ``y = sin pω_i`` (dimension ``2i``) up. The image is computed by the 2×2 block of
    ``T_k`` acting on ``(sin, cos)``::

        sin' =  cos(kω_i)·sin(pω_i) + sin(kω_i)·cos(pω_i)
        cos' = −sin(kω_i)·sin(pω_i) + cos(kω_i)·cos(pω_i)

    and lands on ``PE(p + k)``: a counter-clockwise turn by ``kω_i`` for ``k > 0``. The
    arc shows the turn; grey dots mark ``PE(q)`` for ``q = 0 … orbit − 1``. Sliders: ``k``,
    ``p`` and the pair ``i``. Introduced in notebook 04 (it generalises "One pair as a point
    on a circle").

    Parameters
    ----------
    d_model : int
        Even, 2 to 256 (fixed; the pair slider runs over ``0 … d/2 − 1``).
    pair, position, offset : int
        Starting values of the sliders ``i``, ``p`` (0 to ``orbit − 1``) and ``k``
        (``−max_offset`` to ``max_offset``).
    base : float
        Greater than 1 (fixed).
    max_offset : int
        1 to 1000.
    orbit : int
        Number of grey positions drawn, 1 to 200.
    """
    d_model = _check_even_in(d_model, "d_model", 2, 256)
    base = check_base(base)
    orbit = int(_check_range(orbit, "orbit", 1, 200, integer=True))
    max_offset = int(_check_range(max_offset, "max_offset", 1, 1000, integer=True))
    pair = int(_check_range(pair, "pair", 0, d_model // 2 - 1, integer=True))
    position = int(_check_range(position, "position", 0, orbit - 1, integer=True))
    offset = int(_check_range(offset, "offset", -max_offset, max_offset, integer=True))
    description = (
        f"Unit circle with cos across and sin up for one pair of d = {d_model} (base {base:g}), "
        "with sliders for the offset k, the position p and the pair i: the point PE(p) (blue) "
        "and its image Tₖ PE(p) (red) both lie on the circle, the image is the point of position "
        f"p + k (grey dots mark positions 0 to {orbit - 1}), and the red arc turns counter-clockwise "
        "by k·ωᵢ radians for positive k."
    )
    params = [
        _slider("k", offset, -max_offset, max_offset, 1, "offset k "),
        _slider("p", position, 0, orbit - 1, 1, "position p "),
        _slider("i", pair, 0, d_model // 2 - 1, 1, "pair i "),
    ]
    omega = f"pow({base!r}, -2 * i / {d_model})"
    # One row: the point (sin, cos) of position p and its image by the block of T_k.
    point_transforms = [
        _calc(omega, "omega"),
        *_rotated_point("p", "k"),
        # Labels sit inside the circle, on the point's radius, out of the arc's way.
        _calc("0.72 * datum.cos_p", "x_label_p"),
        _calc("0.72 * datum.sin_p", "y_label_p"),
        _calc("0.72 * datum.cos_image", "x_label_image"),
        _calc("0.72 * datum.sin_image", "y_label_image"),
    ]
    ticks = {"values": [-1, -0.5, 0, 0.5, 1]}
    axis_x = {
        "field": "x",
        "type": "quantitative",
        "scale": {"domain": [-1.45, 1.45]},
        "axis": ticks,
        "title": "cos(p ωᵢ)   (dimension 2i+1)",
    }
    axis_y = {
        "field": "y",
        "type": "quantitative",
        "scale": {"domain": [-1.45, 1.45]},
        "axis": ticks,
        "title": "sin(p ωᵢ)   (dimension 2i)",
    }
    circle = _unit_circle(axis_x, axis_y)
    positions = _orbit(orbit, omega, "position")
    # The turn from p to p + k: a spiral just outside the circle (one more lap, a little further
    # out, for every full turn), ending in an arrowhead that points the way it turns.
    spiral = [
        _calc(omega, "omega"),
        _calc("(p + k * datum.u / 120) * datum.omega", "angle"),
        _calc("1.1 + 0.05 * abs(k * datum.omega) * datum.u / 120 / (2 * PI)", "radius"),
        _calc("datum.radius * cos(datum.angle)", "x"),
        _calc("datum.radius * sin(datum.angle)", "y"),
    ]
    arc = {
        "data": {"sequence": {"start": 0, "stop": 121, "as": "u"}},
        "transform": spiral,
        "mark": {"type": "line", "color": "#d62728", "strokeWidth": 2, "clip": True},
        "encoding": {
            "x": {"field": "x", "type": "quantitative"},
            "y": {"field": "y", "type": "quantitative"},
            "order": {"field": "u", "type": "quantitative"},
        },
    }
    arrow = {
        "data": {"sequence": {"start": 120, "stop": 121, "as": "u"}},
        # Vega's angle runs clockwise from "up"; moving counter-clockwise at angle φ heads to −φ.
        "transform": [*spiral, _calc("(k >= 0 ? 0 : 180) - datum.angle * 180 / PI", "heading")],
        "mark": {
            "type": "point",
            "shape": "triangle-up",
            "filled": True,
            "color": "#d62728",
            "size": 90,
            "opacity": 1,
        },
        "encoding": {
            "x": {"field": "x", "type": "quantitative"},
            "y": {"field": "y", "type": "quantitative"},
            "angle": {"field": "heading", "type": "quantitative", "scale": None},
        },
    }
    point_data = {"sequence": {"start": 0, "stop": 1, "as": "row"}}
    start = {
        "data": point_data,
        "transform": point_transforms,
        "layer": [
            *_point_and_image(),
            {
                "mark": {"type": "text", "color": "#1f77b4", "fontSize": 13, "text": "PE(p)", "dy": -9},
                "encoding": {
                    "x": {"field": "x_label_p", "type": "quantitative"},
                    "y": {"field": "y_label_p", "type": "quantitative"},
                },
            },
            {
                "mark": {"type": "text", "color": "#d62728", "fontSize": 13, "text": "Tₖ PE(p)", "dy": 9},
                "encoding": {
                    "x": {"field": "x_label_image", "type": "quantitative"},
                    "y": {"field": "y_label_image", "type": "quantitative"},
                },
            },
        ],
    }
    return Explorer(
        _chart(
            description,
            params,
            title={
                "text": {
                    "expr": f"'pair i = ' + i + ', ωᵢ = ' + format({omega}, '.4f') + "
                    "': p = ' + p + ' → p + k = ' + (p + k)"
                }
            },
            width=300,
            height=300,
            layer=[circle, positions, arc, arrow, start],
        )
    )
