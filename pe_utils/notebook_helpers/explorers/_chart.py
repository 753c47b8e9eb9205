"""What every explorer shares: the ``Explorer`` (a Vega-Lite v5 chart and its text form), sliders, radio
buttons, the chart's frame and style, the unit circle, and the argument checks.
"""

from __future__ import annotations

import copy
import json
import math
import numbers
from typing import Any

from ..._checks import _is_integer, check_base, check_d_model

#: The MIME type JupyterLab 4 renders with Vega-Lite 5 (its built-in vega5 extension).
VEGALITE_MIMETYPE = "application/vnd.vegalite.v5+json"


#: The Vega-Lite JSON schema the specs follow (the version of the npm package vega-lite).
VEGALITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"


#: Text form of an explorer (compared by nbval): this prefix, then its description.
TEXT_PREFIX = "[interactive figure] "


_FONT_SIZES = {"title": 14, "axis": 12, "labels": 11}


class Explorer:
    """A Vega-Lite v5 chart with slider parameters and a one-sentence description.

    Displayed in a notebook as the chart; ``to_dict()`` gives the spec (a fresh copy each
    time), ``description`` the figure description (the spec's ``description``), ``params``
    the names of its sliders. Introduced in notebook 03.
    """

    def __init__(self, spec: dict[str, Any]) -> None:
        if not isinstance(spec, dict):
            raise TypeError(f"spec must be a Vega-Lite specification (a dict), got {type(spec).__name__}")
        description = spec.get("description")
        if not isinstance(description, str) or len(description.split()) < 6:
            raise ValueError(
                "spec must have a 'description': one sentence for a reader who cannot see the chart, "
                f"got {description!r}"
            )
        self._spec = copy.deepcopy(spec)

    @property
    def description(self) -> str:
        """The figure description, written for a reader who cannot see the chart."""
        return self._spec["description"]

    @property
    def params(self) -> list[str]:
        """Names of the chart's slider (bound) parameters, in the order they are shown."""
        return [param["name"] for param in self._spec.get("params", []) if "bind" in param]

    def to_dict(self) -> dict[str, Any]:
        """The Vega-Lite specification (a deep copy: changing it leaves the explorer as it is)."""
        return copy.deepcopy(self._spec)

    def to_json(self) -> str:
        """The specification as JSON text, keys in a fixed order."""
        return json.dumps(self._spec, sort_keys=True, ensure_ascii=False)

    def __repr__(self) -> str:
        return TEXT_PREFIX + self.description

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """What a notebook stores: the chart for JupyterLab, its description as text, and metadata.

        The metadata turn off the chart's action menu in JupyterLab (its links lead to web sites).
        """
        data = {VEGALITE_MIMETYPE: self.to_dict(), "text/plain": repr(self)}
        return data, {VEGALITE_MIMETYPE: {"embed_options": {"actions": False}}}


def _slider(name: str, value: float, low: float, high: float, step: float, label: str) -> dict[str, Any]:
    """A parameter bound to a range input (a slider) labelled ``label``."""
    return {
        "name": name,
        "value": value,
        "bind": {"input": "range", "min": low, "max": high, "step": step, "name": label},
    }


def _radio(name: str, value: str, options: tuple[str, ...], label: str) -> dict[str, Any]:
    """A parameter bound to radio buttons."""
    return {"name": name, "value": value, "bind": {"input": "radio", "options": list(options), "name": label}}


def _chart(description: str, params: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    """A top-level spec: schema, description, params, the course's font sizes, then ``body``."""
    return {
        "$schema": VEGALITE_SCHEMA,
        "description": " ".join(description.split()),
        "params": params,
        # Re-fit the padding whenever a slider changes the axes' labels (else they may be cut).
        "autosize": {"type": "pad", "resize": True},
        **body,
        "config": {
            "font": "sans-serif",
            "title": {"fontSize": _FONT_SIZES["title"], "fontWeight": "normal"},
            "axis": {"titleFontSize": _FONT_SIZES["axis"], "labelFontSize": _FONT_SIZES["labels"]},
            "legend": {"titleFontSize": _FONT_SIZES["axis"], "labelFontSize": _FONT_SIZES["labels"]},
        },
    }


def _calc(expression: str, name: str) -> dict[str, str]:
    return {"calculate": expression, "as": name}


def _rotated_point(position: str, offset: str) -> list[dict[str, Any]]:
    """Transforms of notebook 04's rotation, for a row whose ``omega`` is set: the point
    ``(sin pω, cos pω)`` of ``position`` (``sin_p``, ``cos_p``) and its image by the block of
    ``T_k`` for ``k = offset`` (``theta``, ``sin_image``, ``cos_image``), both Vega expressions."""
    return [
        _calc(f"sin({position} * datum.omega)", "sin_p"),
        _calc(f"cos({position} * datum.omega)", "cos_p"),
        _calc(f"{offset} * datum.omega", "theta"),
        _calc("cos(datum.theta) * datum.sin_p + sin(datum.theta) * datum.cos_p", "sin_image"),
        _calc("-sin(datum.theta) * datum.sin_p + cos(datum.theta) * datum.cos_p", "cos_image"),
    ]


def _point_and_image() -> list[dict[str, Any]]:
    """The point (blue) and its image (red) of :func:`_rotated_point`, as circle marks."""
    return [
        {
            "mark": {"type": "circle", "color": colour, "size": 120, "opacity": 1},
            "encoding": {
                "x": {"field": f"cos_{which}", "type": "quantitative"},
                "y": {"field": f"sin_{which}", "type": "quantitative"},
            },
        }
        for colour, which in (("#1f77b4", "p"), ("#d62728", "image"))
    ]


def _unit_circle(
    axis_x: dict[str, Any], axis_y: dict[str, Any], fields: tuple[str, str] = ("x", "y")
) -> dict[str, Any]:
    """A Vega-Lite layer: the unit circle as a thin grey line, on the axes ``axis_x``, ``axis_y``."""
    x, y = fields
    return {
        "data": {"sequence": {"start": 0, "stop": 121, "as": "t"}},
        "transform": [
            _calc("2 * PI * datum.t / 120", "angle"),
            _calc("cos(datum.angle)", x),
            _calc("sin(datum.angle)", y),
        ],
        "mark": {"type": "line", "color": "#bbbbbb", "strokeWidth": 1},
        "encoding": {"x": axis_x, "y": axis_y, "order": {"field": "t", "type": "quantitative"}},
    }


def _orbit(count: int, omega: str, title: str, fields: tuple[str, str] = ("x", "y")) -> dict[str, Any]:
    """A Vega-Lite layer: the points (cos qω, sin qω) for q = 0 … count − 1, as grey dots.

    ``omega`` is a Vega expression for ω (it may read the sliders); ``title`` names q in the tooltip.
    """
    x, y = fields
    return {
        "data": {"sequence": {"start": 0, "stop": count, "as": "q"}},
        "transform": [
            _calc(omega, "omega"),
            _calc("cos(datum.q * datum.omega)", x),
            _calc("sin(datum.q * datum.omega)", y),
        ],
        "mark": {"type": "circle", "color": "#999999", "size": 22},
        "encoding": {
            "x": {"field": x, "type": "quantitative"},
            "y": {"field": y, "type": "quantitative"},
            "tooltip": [{"field": "q", "title": title}],
        },
    }


def _check_range(value: Any, name: str, low: float, high: float, *, integer: bool = False) -> float:
    """``value`` as a number if it is a real (an integer if ``integer``) in ``[low, high]``."""
    kind = "an integer" if integer else "a real number"
    ok_type = (
        _is_integer(value)
        if integer
        else (isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(float(value)))
    )
    if not ok_type:
        raise TypeError(f"{name} must be {kind} from {low:g} to {high:g}, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be {kind} from {low:g} to {high:g}, got {value!r}")
    return int(value) if integer else float(value)


def _check_exponent(base: Any, name: str, low: float, high: float) -> float:
    """log10 of ``base`` (a base > 1) rounded to the slider's 0.1 step; it must lie in [low, high]."""
    base = check_base(base, name)
    exponent = round(math.log10(base), 1)
    if not low <= exponent <= high or not math.isclose(10.0**exponent, base, rel_tol=1e-9):
        raise ValueError(
            f"{name} must be a power of ten 10^x with x from {low:g} to {high:g} in steps of 0.1 "
            f"(the slider's values), got {base!r}"
        )
    return exponent


def _check_even_in(d_model: Any, name: str, low: int, high: int) -> int:
    d_model = check_d_model(d_model, name)
    if not low <= d_model <= high:
        raise ValueError(f"{name} must be an even integer from {low} to {high}, got {d_model}")
    return d_model


# Vega expressions shared by several explorers. ``datum.i`` is a pair index, ``d`` the signal.
_BASE = "pow(10, log10_base)"


_OMEGA = f"pow({_BASE}, -2 * datum.i / d)"  # ω_i = base^(−2i/d)


_BASE_TEXT = f"format({_BASE}, ',.0f')"  # the base as a title shows it: 10,000
