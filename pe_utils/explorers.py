"""Interactive explorers: figures with sliders that run in the browser, no kernel needed.

Each function returns an :class:`Explorer`, a Vega-Lite v5 chart whose numbers are computed
*inside* Vega-Lite (``sequence`` data, ``calculate``, ``flatten`` and ``aggregate``
transforms) from slider parameters, so moving a slider recomputes the figure in JupyterLab,
on the static site and in the slides alike. The data are a small grid generated in the chart
itself: nothing is stored but the recipe. ``tests/test_explorers.py`` runs each chart in
Vega (Node.js) at two slider settings and checks its numbers against the course's own
functions (``sinusoidal_pe``, ``similarity_profile``, ``shift_matrix``, ``rope_frequencies``,
``wavelengths``, ``sincos_2d`` and ``grid_shift_matrix``).

In a notebook an explorer shows as the chart (MIME type ``application/vnd.vegalite.v5+json``,
rendered by JupyterLab's built-in Vega extension); its text form, the one nbval compares, is
``[interactive figure] description``. ``tools/explorers_web.py`` renders the same chart on
the site and in the slides with local copies of vega, vega-lite and vega-embed.

====================  ========  ============================================================
explorer              notebook  sliders
====================  ========  ============================================================
table_explorer        03        ``d``, ``log10(base)``: the table PE as a heatmap
rotation_explorer     04        ``k``, ``p``, pair ``i``: one pair's point and its image by T_k
profile_explorer      05        ``d``, ``log10(base)``: ``f(k) = Σ_i cos(k ω_i)``
wavelength_explorer   09        ``log10(base)``, ``log2(L)``: wavelengths against a length L
scaling_explorer      09        ``s`` and the rule: the divisor ``ω_i / ω'_i`` per pair
grid_shift_explorer   12        ``k_x``, ``k_y``, pair ``i``: each axis block rotated
====================  ========  ============================================================
"""

from __future__ import annotations

import copy
import json
import math
import numbers
from typing import Any

from ._checks import _is_integer, check_base, check_d_model, check_positive_count
from .context import LENGTH_DEPENDENT_RULES, RULES, check_scaling

#: The MIME type JupyterLab 4 renders with Vega-Lite 5 (its built-in vega5 extension).
VEGALITE_MIMETYPE = "application/vnd.vegalite.v5+json"
#: The Vega-Lite JSON schema the specs follow (the version of the npm package vega-lite).
VEGALITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
#: Text form of an explorer (compared by nbval): this prefix, then its description.
TEXT_PREFIX = "[interactive figure] "
#: The context-extension rules of :func:`scaling_explorer`, as Hugging Face's ``rope_type``: the
#: static ones (``"dynamic"`` also depends on the current length, which the chart has no slider for).
SCALING_RULES: tuple[str, ...] = tuple(rule for rule in RULES if rule not in LENGTH_DEPENDENT_RULES)
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


# ---------------------------------------------------------------------------------------------
# Building blocks


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


# ---------------------------------------------------------------------------------------------
# 03: the table


def table_explorer(
    n_positions: int = 50,
    d_model: int = 64,
    *,
    base: float = 10000.0,
    max_d_model: int = 128,
) -> Explorer:
    """Heatmap of the table ``PE`` with sliders for ``d`` and the base.

    Entry ``(p, j)`` is ``sin(p ω_i)`` for ``j = 2i`` and ``cos(p ω_i)`` for ``j = 2i + 1``,
    ``ω_i = base^(−2i/d)``, on the fixed scale ``[−1, 1]`` (blue to red), position ``p``
    down and dimension ``j`` across, as ``plot_table_heatmap``. The chart computes every
    entry itself for the slider values; the base moves in steps of 0.1 in ``log10(base)``.
    Introduced in notebook 03 (it generalises the heatmap of section 4).

    Parameters
    ----------
    n_positions : int
        Rows ``p = 0 … n − 1``, 1 to 200.
    d_model : int
        Starting value of the ``d`` slider: even, 2 to ``max_d_model``.
    base : float
        Starting base: ``10^x`` with ``x`` from 1 to 5 in steps of 0.1 (10000 is ``10^4``).
    max_d_model : int
        Largest ``d`` on the slider: even, 2 to 256.

    Returns
    -------
    Explorer
    """
    n_positions = int(_check_range(n_positions, "n_positions", 1, 200, integer=True))
    max_d_model = _check_even_in(max_d_model, "max_d_model", 2, 256)
    d_model = _check_even_in(d_model, "d_model", 2, max_d_model)
    exponent = _check_exponent(base, "base", 1.0, 5.0)
    description = (
        f"Heatmap of the positional-encoding table for positions 0 to {n_positions - 1} down and "
        f"dimensions across, from -1 (blue) to +1 (red), with sliders for d (starting at "
        f"{d_model}) and the base (starting at {10.0**exponent:g}): the left columns alternate "
        "colour within a few rows, the right columns change slowly, and a larger base widens "
        "the slowly changing band."
    )
    params = [
        _slider("d", d_model, 2, max_d_model, 2, "d (dimensions) "),
        _slider("log10_base", exponent, 1, 5, 0.1, "log10(base) "),
    ]
    return Explorer(
        _chart(
            description,
            params,
            title={"text": {"expr": f"'PE table: d = ' + d + ', base = ' + {_BASE_TEXT}"}},
            width=480,
            height=300,
            data={"sequence": {"start": 0, "stop": n_positions, "as": "p"}},
            transform=[
                _calc("sequence(0, d)", "dimensions"),
                {"flatten": ["dimensions"], "as": ["j"]},
                _calc("floor(datum.j / 2)", "i"),
                _calc(_OMEGA, "omega"),
                _calc("datum.j % 2 == 0 ? sin(datum.p * datum.omega) : cos(datum.p * datum.omega)", "value"),
                _calc("datum.j + 1", "j_end"),
                _calc("datum.p + 1", "p_end"),
            ],
            mark={"type": "rect"},
            encoding={
                "x": {
                    "field": "j",
                    "type": "quantitative",
                    "title": "dimension j (2i: sin, 2i+1: cos)",
                    "scale": {"nice": False, "zero": True},
                },
                "x2": {"field": "j_end"},
                "y": {
                    "field": "p",
                    "type": "quantitative",
                    "title": "position p",
                    "scale": {"nice": False, "zero": True, "reverse": True},
                },
                "y2": {"field": "p_end"},
                "color": {
                    "field": "value",
                    "type": "quantitative",
                    "title": "value",
                    "scale": {"scheme": "redblue", "reverse": True, "domain": [-1, 1]},
                },
                "tooltip": [
                    {"field": "p", "title": "p"},
                    {"field": "j", "title": "j"},
                    {"field": "value", "title": "PE(p)[j]", "format": ".3f"},
                ],
            },
        )
    )


# ---------------------------------------------------------------------------------------------
# 04: one pair's rotation


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
        _calc("sin(p * datum.omega)", "sin_p"),
        _calc("cos(p * datum.omega)", "cos_p"),
        _calc("k * datum.omega", "theta"),
        _calc("cos(datum.theta) * datum.sin_p + sin(datum.theta) * datum.cos_p", "sin_image"),
        _calc("-sin(datum.theta) * datum.sin_p + cos(datum.theta) * datum.cos_p", "cos_image"),
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
            {
                "mark": {"type": "circle", "color": "#1f77b4", "size": 120, "opacity": 1},
                "encoding": {
                    "x": {"field": "cos_p", "type": "quantitative"},
                    "y": {"field": "sin_p", "type": "quantitative"},
                },
            },
            {
                "mark": {"type": "circle", "color": "#d62728", "size": 120, "opacity": 1},
                "encoding": {
                    "x": {"field": "cos_image", "type": "quantitative"},
                    "y": {"field": "sin_image", "type": "quantitative"},
                },
            },
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


# ---------------------------------------------------------------------------------------------
# 05: the similarity profile


def profile_explorer(
    d_model: int = 64,
    *,
    base: float = 10000.0,
    max_offset: int = 200,
    max_d_model: int = 256,
) -> Explorer:
    """``f(k) = Σ_i cos(k ω_i) = PE(p)·PE(p+k)`` against the offset ``k``, sliders for ``d`` and base.

    The chart sums ``cos(k ω_i)`` over the pairs ``i = 0 … d/2 − 1`` itself (one row per
    offset and pair, then an aggregate), for ``k = −max_offset … max_offset``. A dashed
    line marks ``d/2 = f(0)``. Introduced in notebook 05 (it generalises the two panels of
    "Similarity does not fall monotonically with distance").

    Parameters
    ----------
    d_model : int
        Starting value of the ``d`` slider: even, 2 to ``max_d_model``.
    base : float
        Starting base: ``10^x``, ``x`` from 1 to 5 in steps of 0.1.
    max_offset : int
        1 to 1000.
    max_d_model : int
        Largest ``d`` on the slider: even, 2 to 512.
    """
    max_d_model = _check_even_in(max_d_model, "max_d_model", 2, 512)
    d_model = _check_even_in(d_model, "d_model", 2, max_d_model)
    exponent = _check_exponent(base, "base", 1.0, 5.0)
    max_offset = int(_check_range(max_offset, "max_offset", 1, 1000, integer=True))
    description = (
        f"Line chart of the similarity f(k) = PE(p)·PE(p+k) against the offset k from "
        f"-{max_offset} to {max_offset}, with sliders for d (starting at {d_model}) and the base "
        f"(starting at {10.0**exponent:g}): the curve peaks at k = 0 at height d/2 (dashed line), "
        "is mirror-symmetric and wiggles instead of falling steadily, and a smaller base makes it "
        "fall sooner to a lower level."
    )
    params = [
        _slider("d", d_model, 2, max_d_model, 2, "d (dimensions) "),
        _slider("log10_base", exponent, 1, 5, 0.1, "log10(base) "),
    ]
    profile = {
        "data": {"sequence": {"start": -max_offset, "stop": max_offset + 1, "as": "k"}},
        "transform": [
            _calc("sequence(0, d / 2)", "pairs"),
            {"flatten": ["pairs"], "as": ["i"]},
            _calc(f"cos(datum.k * {_OMEGA})", "term"),
            {"aggregate": [{"op": "sum", "field": "term", "as": "f"}], "groupby": ["k"]},
        ],
        "mark": {"type": "line", "color": "#1f77b4", "strokeWidth": 1.5},
        "encoding": {
            "x": {
                "field": "k",
                "type": "quantitative",
                "title": "offset k = q − p",
                "scale": {"nice": False},
            },
            "y": {"field": "f", "type": "quantitative", "title": "f(k) = PE(p)·PE(p+k)"},
            "tooltip": [{"field": "k"}, {"field": "f", "format": ".3f"}],
        },
    }
    half = {
        "data": {"sequence": {"start": 0, "stop": 1, "as": "row"}},
        "transform": [_calc("d / 2", "half")],
        "mark": {"type": "rule", "color": "#777777", "strokeDash": [4, 4]},
        "encoding": {"y": {"field": "half", "type": "quantitative"}},
    }
    return Explorer(
        _chart(
            description,
            params,
            title={"text": {"expr": f"'f(k) = Σ cos(k ωᵢ): d = ' + d + ', base = ' + {_BASE_TEXT}"}},
            width=520,
            height=260,
            layer=[profile, half],
        )
    )


# ---------------------------------------------------------------------------------------------
# 09: wavelengths against a context length, and the context-extension rules


def wavelength_explorer(
    d_model: int = 128,
    *,
    base: float = 10000.0,
    length: int = 4096,
) -> Explorer:
    """Wavelength ``λ_i = 2π/ω_i`` of every pair, log axis, against a context length ``L``.

    Sliders for ``log10(base)`` (0.1 steps) and ``log2(L)``. Pairs with ``λ_i > L`` (orange)
    do not complete one turn within ``L`` positions; the horizontal line marks ``L``.
    Introduced in notebook 09 (it generalises the wavelength figure of "Why 10000").

    Parameters
    ----------
    d_model : int
        Even, 2 to 512 (fixed).
    base : float
        Starting base: ``10^x``, ``x`` from 1 to 7 in steps of 0.1.
    length : int
        Starting ``L``: a power of two from ``2^6`` to ``2^20``.
    """
    d_model = _check_even_in(d_model, "d_model", 2, 512)
    exponent = _check_exponent(base, "base", 1.0, 7.0)
    length = check_positive_count(length, "length")
    if length & (length - 1) or not 2**6 <= length <= 2**20:
        raise ValueError(f"length must be a power of two from 64 to 1048576, got {length}")
    description = (
        f"Wavelength of each of the {d_model // 2} pairs (d = {d_model}) on a log axis against the "
        f"pair index, with sliders for the base (starting at {10.0**exponent:g}) and a context "
        f"length L (starting at {length}, horizontal line): wavelengths rise geometrically from "
        "2π, a larger base lifts the slow end, and the pairs above the line (orange) do not "
        "complete one turn within L positions."
    )
    params = [
        _slider("log10_base", exponent, 1, 7, 0.1, "log10(base) "),
        _slider("log2_length", int(math.log2(length)), 6, 20, 1, "log2(L) "),
    ]
    points = {
        "data": {"sequence": {"start": 0, "stop": d_model // 2, "as": "i"}},
        "transform": [
            _calc(f"pow(pow(10, log10_base), -2 * datum.i / {d_model})", "omega"),
            _calc("2 * PI / datum.omega", "wavelength"),
            _calc("datum.wavelength > pow(2, log2_length) ? 'more than L' : 'at most L'", "turns"),
        ],
        "mark": {"type": "point", "filled": True, "size": 30},
        "encoding": {
            "x": {"field": "i", "type": "quantitative", "title": "pair i"},
            "y": {
                "field": "wavelength",
                "type": "quantitative",
                "title": "wavelength λᵢ (positions)",
                "scale": {"type": "log"},
            },
            "color": {
                "field": "turns",
                "type": "nominal",
                "title": "λᵢ",
                "scale": {"domain": ["at most L", "more than L"], "range": ["#1f77b4", "#ff7f0e"]},
            },
            "tooltip": [{"field": "i"}, {"field": "wavelength", "format": ",.1f"}],
        },
    }
    line = {
        "data": {"sequence": {"start": 0, "stop": 1, "as": "row"}},
        "transform": [
            _calc("pow(2, log2_length)", "length"),
            _calc("'L = ' + format(datum.length, ',')", "label"),
        ],
        "encoding": {"y": {"field": "length", "type": "quantitative"}},
        "layer": [
            {"mark": {"type": "rule", "color": "#777777", "strokeDash": [4, 4]}},
            {
                "mark": {
                    "type": "text",
                    "color": "#555555",
                    "align": "left",
                    "x": 4,
                    "dy": -7,
                    "fontSize": 11,
                },
                "encoding": {"text": {"field": "label"}},
            },
        ],
    }
    return Explorer(
        _chart(
            description,
            params,
            title={
                "text": {
                    "expr": f"'d = {d_model}, base = ' + {_BASE_TEXT} + "
                    "', L = ' + format(pow(2, log2_length), ',')"
                }
            },
            width=480,
            height=280,
            layer=[points, line],
        )
    )


def scaling_explorer(
    d_model: int = 128,
    *,
    base: float = 500000.0,
    original_max_position_embeddings: int = 8192,
    factor: float = 8.0,
    rope_type: str = "yarn",
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
    max_factor: float = 32.0,
) -> Explorer:
    """Divisor ``c_i = ω_i / ω'_i`` of each pair's frequency against its wavelength, per rule.

    Sliders for the factor ``s`` (0.5 steps) and the rule (``rope_type``: ``"linear"``,
    ``"ntk"``, ``"yarn"``, ``"llama3"``); the other keys are fixed at the arguments, with
    Hugging Face's names (``original_max_position_embeddings`` is ``L``). The chart computes
    ``ω'_i`` by the formulas of :func:`pe_utils.context.rope_frequencies` (YaRN with
    ``truncate=True``: rounded ramp ends, clamped to ``[0, d − 1]``), so ``c_i`` is ``s``
    for every pair under ``"linear"``, ``s^(2i/(d−2))`` under ``"ntk"``, and 1 for fast pairs
    rising to ``s`` for slow ones under ``"yarn"`` and ``"llama3"``. The dotted line marks
    ``λ = L``. Introduced in notebook 09 (it generalises "Llama 3.1's banded rule").

    Parameters
    ----------
    d_model : int
        Even, 4 to 512 (fixed).
    base : float
        Greater than 1 (fixed).
    original_max_position_embeddings : int
        ``L``, greater than ``2π·beta_slow``.
    factor : float
        Starting ``s``: from 1 to ``max_factor`` in steps of 0.5.
    rope_type : {"linear", "ntk", "yarn", "llama3"}
        Starting rule.
    beta_fast, beta_slow : float
        YaRN's, ``beta_fast > beta_slow > 0``.
    low_freq_factor, high_freq_factor : float
        Llama 3.1's, ``high_freq_factor > low_freq_factor > 0``.
    max_factor : float
        Largest ``s`` on the slider, 2 to 64.
    """
    d_model = _check_even_in(d_model, "d_model", 4, 512)
    base = check_base(base)
    if not isinstance(rope_type, str) or rope_type not in SCALING_RULES:
        raise ValueError(f"rope_type must be one of {', '.join(map(repr, SCALING_RULES))}, got {rope_type!r}")
    max_factor = _check_range(max_factor, "max_factor", 2.0, 64.0)
    factor = _check_range(factor, "factor", 1.0, max_factor)
    if factor * 2 != round(factor * 2):
        raise ValueError(f"factor must be a multiple of 0.5 (the slider's step), got {factor}")
    # The fixed keys are checked by rope_frequencies' own checks, so both agree on what is valid.

    for rule in ("yarn", "llama3"):
        check_scaling(
            {
                "rope_type": rule,
                "factor": factor,
                "original_max_position_embeddings": original_max_position_embeddings,
                **(
                    {"beta_fast": beta_fast, "beta_slow": beta_slow}
                    if rule == "yarn"
                    else {"low_freq_factor": low_freq_factor, "high_freq_factor": high_freq_factor}
                ),
            },
            d_model,
        )
    length = int(original_max_position_embeddings)
    beta_fast, beta_slow = float(beta_fast), float(beta_slow)
    low_freq_factor, high_freq_factor = float(low_freq_factor), float(high_freq_factor)
    description = (
        f"Divisor of each pair's frequency against its wavelength on a log axis (d = {d_model}, "
        f"base {base:g}, trained length L = {length}), with a slider for the factor s (starting "
        f"at {factor:g}) and a choice of rule (starting with {rope_type}): linear divides every "
        "pair by s, ntk climbs smoothly from 1 to s, and yarn and llama3 keep the fast pairs at 1 "
        "and divide the pairs slower than about λ = L (dotted line) by s."
    )
    params = [
        _slider("s", factor, 1, max_factor, 0.5, "factor s "),
        _radio("rule", rope_type, SCALING_RULES, "rule "),
    ]

    def pair_index(rotations: float) -> str:
        # YaRN's i(r) = d·ln(L/(2π r)) / (2 ln base): the pair that turns r times in L.
        return f"{d_model} * log({length} / (2 * PI * {rotations!r})) / (2 * log({base!r}))"

    transforms = [
        _calc(f"pow({base!r}, -2 * datum.i / {d_model})", "omega"),
        _calc("2 * PI / datum.omega", "wavelength"),
        # ntk: a new base base·s^(d/(d−2)).
        _calc(f"pow({base!r} * pow(s, {d_model} / {d_model - 2}), -2 * datum.i / {d_model})", "omega_ntk"),
        # yarn: ramp in the pair index between low = ⌊i(beta_fast)⌋ and high = ⌈i(beta_slow)⌉.
        _calc(f"min(max(floor({pair_index(beta_fast)}), 0), {d_model - 1})", "yarn_low"),
        _calc(f"min(ceil({pair_index(beta_slow)}), {d_model - 1})", "yarn_high_raw"),
        _calc(
            "datum.yarn_high_raw == datum.yarn_low ? datum.yarn_high_raw + 0.001 : datum.yarn_high_raw",
            "yarn_high",
        ),
        _calc("clamp((datum.i - datum.yarn_low) / (datum.yarn_high - datum.yarn_low), 0, 1)", "ramp"),
        _calc("datum.omega / s * datum.ramp + datum.omega * (1 - datum.ramp)", "omega_yarn"),
        # llama3: keep λ < L/β, divide λ > L/α by s, interpolate in L/λ between.
        _calc(
            f"({length} / datum.wavelength - {low_freq_factor!r}) "
            f"/ ({high_freq_factor!r} - {low_freq_factor!r})",
            "smooth",
        ),
        _calc(
            f"datum.wavelength < {length} / {high_freq_factor!r} ? datum.omega : "
            f"datum.wavelength > {length} / {low_freq_factor!r} ? datum.omega / s : "
            "(1 - datum.smooth) * datum.omega / s + datum.smooth * datum.omega",
            "omega_llama3",
        ),
        _calc(
            "rule == 'linear' ? datum.omega / s : rule == 'ntk' ? datum.omega_ntk : "
            "rule == 'yarn' ? datum.omega_yarn : datum.omega_llama3",
            "omega_scaled",
        ),
        _calc("datum.omega / datum.omega_scaled", "divisor"),
    ]
    points = {
        "data": {"sequence": {"start": 0, "stop": d_model // 2, "as": "i"}},
        "transform": transforms,
        "mark": {"type": "line", "point": {"filled": True, "size": 24}, "color": "#1f77b4", "strokeWidth": 1},
        "encoding": {
            "x": {
                "field": "wavelength",
                "type": "quantitative",
                "title": "wavelength λᵢ (positions)",
                "scale": {"type": "log"},
            },
            "y": {
                "field": "divisor",
                "type": "quantitative",
                "title": "divisor cᵢ = ωᵢ / ω′ᵢ",
                "scale": {"domain": {"expr": "[0, max(s, 2) * 1.05]"}},
            },
            "tooltip": [
                {"field": "i", "title": "pair i"},
                {"field": "wavelength", "format": ",.1f"},
                {"field": "divisor", "format": ".3f"},
            ],
        },
    }
    line = {
        "data": {"sequence": {"start": 0, "stop": 1, "as": "row"}},
        "transform": [_calc(f"{length}", "length")],
        "encoding": {"x": {"field": "length", "type": "quantitative"}},
        "layer": [
            {"mark": {"type": "rule", "color": "#777777", "strokeDash": [2, 3]}},
            {
                "mark": {
                    "type": "text",
                    "text": "λ = L",
                    "color": "#555555",
                    "align": "left",
                    "dx": 4,
                    "y": 8,
                    "fontSize": 11,
                }
            },
        ],
    }
    return Explorer(
        _chart(
            description,
            params,
            title={
                "text": {
                    "expr": "'rule ' + rule + ', factor s = ' + s + "
                    f"' (d = {d_model}, base = {base:g}, L = {length})'"
                }
            },
            width=480,
            height=260,
            layer=[points, line],
        )
    )


# ---------------------------------------------------------------------------------------------
# 12: a shift of the grid of patches is a rotation of each axis block


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
                _calc("sin(datum.position * datum.omega)", "sin_p"),
                _calc("cos(datum.position * datum.omega)", "cos_p"),
                _calc("datum.offset * datum.omega", "theta"),
                _calc("cos(datum.theta) * datum.sin_p + sin(datum.theta) * datum.cos_p", "sin_image"),
                _calc("-sin(datum.theta) * datum.sin_p + cos(datum.theta) * datum.cos_p", "cos_image"),
            ],
            "layer": [
                {
                    "mark": {"type": "circle", "color": "#1f77b4", "size": 120, "opacity": 1},
                    "encoding": {
                        "x": {"field": "cos_p", "type": "quantitative"},
                        "y": {"field": "sin_p", "type": "quantitative"},
                    },
                },
                {
                    "mark": {"type": "circle", "color": "#d62728", "size": 120, "opacity": 1},
                    "encoding": {
                        "x": {"field": "cos_image", "type": "quantitative"},
                        "y": {"field": "sin_image", "type": "quantitative"},
                    },
                },
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
