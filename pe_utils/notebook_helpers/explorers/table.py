"""Notebook 03's explorer: the table PE as a heatmap, with ``d`` and ``log10(base)`` as sliders."""

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
