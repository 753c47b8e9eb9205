"""Notebook 09's second explorer: the divisor ``ω_i / ω'_i`` of each pair under a context-extension rule (its
Vega expressions are compared with ``pe_utils.rope_scaling.rope_frequencies`` by
tests/notebook_helpers/test_explorers.py).
"""

from __future__ import annotations

from ..._checks import check_base
from ...rope_scaling import LENGTH_DEPENDENT_RULES, RULES, check_scaling
from ._chart import Explorer, _calc, _chart, _check_even_in, _check_range, _radio, _slider

#: The context-extension rules of :func:`scaling_explorer`, as Hugging Face's ``rope_type``: the
#: static ones (``"dynamic"`` also depends on the current length, which the chart has no slider for).
SCALING_RULES: tuple[str, ...] = tuple(rule for rule in RULES if rule not in LENGTH_DEPENDENT_RULES)


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
    ``ω'_i`` by the formulas of :func:`pe_utils.rope_scaling.rope_frequencies` (YaRN with
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
