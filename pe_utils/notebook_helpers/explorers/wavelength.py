"""Notebook 09's first explorer: each pair's wavelength against a context length ``L``."""

from __future__ import annotations

import math

from ..._checks import check_positive_count
from ._chart import _BASE_TEXT, Explorer, _calc, _chart, _check_even_in, _check_exponent, _slider


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
