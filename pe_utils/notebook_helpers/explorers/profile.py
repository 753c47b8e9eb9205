"""Notebook 05's explorer: ``f(k) = Σ_i cos(k ω_i)``, with ``d`` and ``log10(base)`` as sliders."""

from __future__ import annotations

from ._chart import (
    _BASE_TEXT,
    _OMEGA,
    Explorer,
    _calc,
    _chart,
    _check_even_in,
    _check_exponent,
    _check_range,
    _slider,
)


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
