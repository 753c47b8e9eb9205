"""Longer contexts as frequency rescaling: RoPE frequencies after a context-extension rule (notebook 09).

Every rule of this module is a rescaling of each pair's frequency
``ω_i = base^(−2i/d)``: pair ``i`` turns by ``ω'_i = ω_i / factor_i`` radians per
position instead, where the rule decides the divisor ``factor_i`` from the
pair's wavelength ``λ_i = 2π/ω_i`` and the original (trained) context length
``L``. For ``factor ≥ 1`` every divisor of the static rules (``"linear"``,
``"ntk"``, ``"yarn"``, ``"llama3"``) lies in ``[1, factor]`` (pairs only slow
down); a ``factor`` below 1, which Hugging Face warns about but this module
accepts, speeds pairs up instead: every divisor lies in ``[factor, 1]``. The
``"dynamic"`` rule also depends on the current length ``n``: past ``L`` its last
pair is divided by ``s·n/L − (s − 1)``, which exceeds ``s`` once ``n > (2 − 1/s)·L`` (for ``s > 0``).

The ``scaling`` dictionaries borrow the names of Hugging Face's ``rope_scaling``
(``rope_parameters`` in release 5.x): the keys ``rope_type``, ``factor``,
``original_max_position_embeddings``, ``beta_fast``, ``beta_slow``, ``truncate``,
``low_freq_factor`` and ``high_freq_factor``, and the ``rope_type`` values
``"linear"``, ``"yarn"`` and ``"llama3"`` are Hugging Face's
(``src/transformers/modeling_rope_utils.py``, read at commit ``ef468064`` and in
release 5.23.0; YaRN's ``original_max_position_embeddings`` and ``truncate`` only in
the release). ``"ntk"`` is the course's own name for the *static* NTK-aware rule
(bloc97 2023; jquesnelle/yarn ``LlamaNTKScaledRotaryEmbedding``): Hugging Face has
no such type, only ``"dynamic"``, which recomputes the factor from the current
length ``n`` (``seq_len``; notebook 09 checks its formula, notebook 11 what it does
to a KV cache).

``"dynamic"`` follows Hugging Face's ``_compute_dynamic_ntk_parameters``
(``modeling_rope_utils.py`` at commit ``ef468064``, the same formula in releases
5.23.0 and 5.24.0), with one difference of naming: Hugging Face takes ``L`` from the
model config's ``max_position_embeddings`` and never reads
``original_max_position_embeddings`` for ``"dynamic"``. At ``ef468064`` a TODO said it
should, and the validation accepted that key as optional; in release 5.24.0 the TODO
is gone and the validation warns "Unrecognized keys in `rope_parameters` for
'rope_type'='dynamic'" when the key is given. Here ``L`` is
``scaling["original_max_position_embeddings"]``, required: that use of the key is
the course's own.

==========  ====================================================================
rope_type   keys
==========  ====================================================================
linear      ``factor`` (position interpolation, Chen et al. 2023)
ntk         ``factor`` (NTK-aware base change, bloc97 2023; the course's name)
yarn        ``factor``, ``original_max_position_embeddings``; optional
            ``beta_fast`` (32), ``beta_slow`` (1), ``truncate`` (True)
            (Peng et al. 2023)
llama3      ``factor``, ``low_freq_factor``, ``high_freq_factor``,
            ``original_max_position_embeddings`` (Llama 3.1)
dynamic     ``factor``, ``original_max_position_embeddings`` (``L``; Hugging
            Face's dynamic NTK; needs ``seq_len``)
==========  ====================================================================

ALiBi, notebook 09's contrast (no frequencies at all), is :mod:`pe_utils.alibi`.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ._checks import (
    check_base,
    check_d_model,
    check_positive_count,
    check_positive_real,
    check_table_size,
)
from .encoding import frequencies


@dataclass(frozen=True)
class ScalingRule:
    """One ``rope_type``: the keys it requires, its optional keys with their defaults, its checks.

    :meth:`check` refuses a dictionary with a missing or unknown key, a ``factor`` that is not a
    positive real number, or a non-positive-count ``original_max_position_embeddings``; a
    subclass adds its own checks in :meth:`refine`. Introduced in notebook 09.
    """

    required: tuple[str, ...]
    optional: Mapping[str, Any] = field(default_factory=dict)
    #: True for rules whose new base has the exponent ``d/(d−2)`` (``"ntk"``, ``"dynamic"``).
    needs_d_above_2: bool = False

    #: The keys a subclass's :meth:`refine` reads: each must be required or optional.
    reads: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.required, tuple) or not all(isinstance(key, str) for key in self.required):
            raise TypeError(f"required must be a tuple of key names (str), got {self.required!r}")
        if "rope_type" not in self.required or "factor" not in self.required:
            raise ValueError(f'required must hold "rope_type" and "factor", got {self.required!r}')
        if not isinstance(self.optional, Mapping) or not all(isinstance(key, str) for key in self.optional):
            raise TypeError(f"optional must be a dict of key names (str) and defaults, got {self.optional!r}")
        if not isinstance(self.needs_d_above_2, bool):
            raise TypeError(f"needs_d_above_2 must be True or False, got {self.needs_d_above_2!r}")
        both = set(self.required) & set(self.optional)
        if both:
            raise ValueError(f"keys cannot be both required and optional: {sorted(both)}")
        unread = [key for key in self.reads if key not in self.required and key not in self.optional]
        if unread:
            raise ValueError(
                f"{type(self).__name__} reads the key(s) {unread}: make them required or optional"
            )

    def check(self, rope_type: str, scaling: Mapping[str, Any], d_model: int) -> dict[str, Any]:
        """``scaling`` with defaults filled in and numbers as floats; refused (key named) if invalid."""
        missing = [key for key in self.required if key not in scaling]
        if missing:
            raise ValueError(
                f"scaling for rope_type {rope_type!r} is missing the key(s) "
                + ", ".join(f'"{key}"' for key in missing)
                + "; it needs "
                + ", ".join(f'"{key}"' for key in self.required)
            )
        unknown = sorted(key for key in scaling if key not in self.required and key not in self.optional)
        if unknown:
            raise ValueError(
                f"scaling for rope_type {rope_type!r} has unknown key(s) "
                + ", ".join(f'"{key}"' for key in unknown)
                + "; allowed: "
                + ", ".join(f'"{key}"' for key in [*self.required, *self.optional])
            )
        checked: dict[str, Any] = {**self.optional, **scaling}
        checked["factor"] = _positive_real(scaling["factor"], "factor")
        if self.needs_d_above_2 and d_model <= 2:
            raise ValueError(
                f'rope_type "{rope_type}" needs d_model > 2 (its exponent is d/(d−2)), got d_model={d_model}'
            )
        if "original_max_position_embeddings" in self.required:
            checked["original_max_position_embeddings"] = check_positive_count(
                scaling["original_max_position_embeddings"], 'scaling["original_max_position_embeddings"]'
            )
        self.refine(checked)
        return checked

    def refine(self, checked: dict[str, Any]) -> None:
        """The rule's own checks on ``checked`` (updated in place); none by default."""


def _ordered_pair(checked: dict[str, Any], low_key: str, high_key: str) -> tuple[float, float]:
    """``checked[low_key] < checked[high_key]``, both positive reals, stored back as floats."""
    low, high = _positive_real(checked[low_key], low_key), _positive_real(checked[high_key], high_key)
    if high <= low:
        raise ValueError(
            f'scaling["{high_key}"] must be greater than scaling["{low_key}"], '
            f"got {high_key}={high} and {low_key}={low}"
        )
    checked[low_key], checked[high_key] = low, high
    return low, high


class Llama3Rule(ScalingRule):
    """Llama 3.1's band: ``0 < low_freq_factor < high_freq_factor``."""

    reads: ClassVar[tuple[str, ...]] = ("low_freq_factor", "high_freq_factor")

    def refine(self, checked: dict[str, Any]) -> None:
        _ordered_pair(checked, "low_freq_factor", "high_freq_factor")


class YarnRule(ScalingRule):
    """YaRN's ramp: ``0 < beta_slow < beta_fast``, ``truncate`` a bool, ``L > 2π·beta_slow``."""

    reads: ClassVar[tuple[str, ...]] = (
        "beta_fast",
        "beta_slow",
        "truncate",
        "original_max_position_embeddings",
    )

    def refine(self, checked: dict[str, Any]) -> None:
        # beta_fast is named first (as in the message of a wrong order), so check it first.
        _positive_real(checked["beta_fast"], "beta_fast")
        slow, _ = _ordered_pair(checked, "beta_slow", "beta_fast")
        if not isinstance(checked["truncate"], (bool, np.bool_)):
            raise TypeError(f'scaling["truncate"] must be True or False, got {checked["truncate"]!r}')
        length = checked["original_max_position_embeddings"]
        if length <= 2.0 * math.pi * slow:
            raise ValueError(
                'scaling["original_max_position_embeddings"] must exceed 2π·beta_slow '
                f"(pair 0 must turn beta_slow times within it), got {length} with beta_slow={slow}"
            )
        checked["truncate"] = bool(checked["truncate"])


#: Each ``rope_type`` and its rule: the keys it requires, the optional ones with their defaults.
RULES: dict[str, ScalingRule] = {
    "linear": ScalingRule(("rope_type", "factor")),
    "ntk": ScalingRule(("rope_type", "factor"), needs_d_above_2=True),
    "yarn": YarnRule(
        ("rope_type", "factor", "original_max_position_embeddings"),
        {"beta_fast": 32.0, "beta_slow": 1.0, "truncate": True},
    ),
    "llama3": Llama3Rule(
        ("rope_type", "factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"),
    ),
    "dynamic": ScalingRule(("rope_type", "factor", "original_max_position_embeddings"), needs_d_above_2=True),
}

#: ``log`` of the largest float64: a new base beyond it would overflow.
_LOG_MAX_FLOAT: float = math.log(sys.float_info.max)

#: The rules whose frequencies depend on the current length ``seq_len`` as well.
LENGTH_DEPENDENT_RULES: tuple[str, ...] = ("dynamic",)


def _positive_real(value: Any, key: str) -> float:
    """``scaling[key]`` as a float if it is a finite real number greater than 0 (key named on error)."""
    return check_positive_real(value, f'scaling["{key}"]')


def check_scaling(scaling: Any, d_model: int) -> dict[str, Any] | None:
    """Validate a ``rope_scaling``-style dictionary; return it with defaults filled in.

    ``None`` passes through. Otherwise ``scaling["rope_type"]`` picks a :data:`RULES` entry,
    whose :meth:`ScalingRule.check` refuses a missing or unknown key or a bad value, naming
    the key. Used by :func:`rope_frequencies` and
    :func:`pe_utils.notebook_helpers.explorers.scaling_explorer`.
    Introduced in notebook 09.
    """
    if scaling is None:
        return None
    d_model = check_d_model(d_model)
    if not isinstance(scaling, Mapping):
        raise TypeError(
            "scaling must be None or a dict such as {'rope_type': 'linear', 'factor': 4.0}, "
            f"got {type(scaling).__name__}"
        )
    for key in scaling:
        if not isinstance(key, str):
            raise TypeError(f"scaling keys must be strings, got the key {key!r}")
    names = ", ".join(repr(rule) for rule in RULES)
    if "rope_type" not in scaling:
        raise ValueError(f'scaling is missing the key "rope_type": expected one of {names}')
    rope_type = scaling["rope_type"]
    if not isinstance(rope_type, str) or rope_type not in RULES:
        raise ValueError(f'scaling["rope_type"] must be one of {names}, got {rope_type!r}')
    return RULES[rope_type].check(rope_type, scaling, d_model)


def _yarn_pair_index(rotations: float, d_model: int, base: float, length: int) -> float:
    """The (fractional) pair index ``i`` whose pair turns ``rotations`` times in ``length`` positions.

    Solves ``length·ω_i/(2π) = rotations`` with ``ω_i = base^(−2i/d)``:
    ``i = d·ln(length/(2π·rotations)) / (2·ln base)``.
    """
    return d_model * math.log(length / (2.0 * math.pi * rotations)) / (2.0 * math.log(base))


def _yarn(omega: np.ndarray, d_model: int, base: float, rule: dict[str, Any]) -> np.ndarray:
    """YaRN's "NTK-by-parts" frequencies, as in the implementations (see rope_frequencies)."""
    factor, length = rule["factor"], rule["original_max_position_embeddings"]
    low = _yarn_pair_index(rule["beta_fast"], d_model, base, length)
    high = _yarn_pair_index(rule["beta_slow"], d_model, base, length)
    if rule["truncate"]:
        low, high = math.floor(low), math.ceil(high)
    # The implementations clamp low to ≥ 0 and high to ≤ d − 1. Clamping low to ≤ d − 1 too
    # changes nothing where low ≤ d − 1; beyond (every pair turns more than beta_fast times
    # in L) their ramp would run backwards and divide every pair by s, here none is.
    low, high = min(max(low, 0), d_model - 1), min(high, d_model - 1)
    if low == high:
        high += 0.001  # as in the implementations: avoids a division by zero
    pair_index = np.arange(omega.size, dtype=np.float64)
    ramp = np.clip((pair_index - low) / (high - low), 0.0, 1.0)  # 0: keep ω_i, 1: ω_i / s
    keep = 1.0 - ramp
    return omega / factor * (1.0 - keep) + omega * keep


def _llama3(omega: np.ndarray, rule: dict[str, Any]) -> np.ndarray:
    """Llama 3.1's banded frequencies (see rope_frequencies)."""
    factor, length = rule["factor"], rule["original_max_position_embeddings"]
    low, high = rule["low_freq_factor"], rule["high_freq_factor"]
    wavelength = 2.0 * np.pi / omega
    rotations = length / wavelength  # turns of pair i within the original context L
    smooth = (rotations - low) / (high - low)
    scaled = np.where(wavelength > length / low, omega / factor, omega)
    in_band = (wavelength >= length / high) & (wavelength <= length / low)
    return np.where(in_band, (1.0 - smooth) * omega / factor + smooth * omega, scaled)


def _check_seq_len(seq_len: Any, rule: dict[str, Any] | None) -> int | None:
    """``seq_len`` as an int where the rule needs it; refused where it would be ignored."""
    needs = rule is not None and rule["rope_type"] in LENGTH_DEPENDENT_RULES
    if seq_len is None:
        if needs:
            raise ValueError(
                f"seq_len is required for scaling rope_type {rule['rope_type']!r}: its frequencies "
                "depend on the current length n (pass seq_len=n)"
            )
        return None
    if not needs:
        used_by = ", ".join(repr(name) for name in LENGTH_DEPENDENT_RULES)
        raise ValueError(
            f"seq_len is used only by scaling rope_type {used_by}; it would change nothing here "
            f"(got seq_len={seq_len!r} with scaling={None if rule is None else rule['rope_type']!r})"
        )
    return check_positive_count(seq_len, "seq_len")


def _raised_base(base: float, bracket: float, d_model: int, culprit: str) -> float:
    """``base·bracket^(d/(d−2))``, refused (``culprit`` named) where it leaves the float64 range."""
    exponent = d_model / (d_model - 2)
    if not math.isfinite(bracket) or math.log(base) + exponent * math.log(bracket) >= _LOG_MAX_FLOAT:
        raise ValueError(
            f"{culprit}: the new base base·({bracket:g})^({d_model}/{d_model - 2}) is too large for "
            "float64 (it overflows); use smaller values"
        )
    return base * bracket**exponent


def _dynamic_base(base: float, d_model: int, rule: dict[str, Any], seq_len: int) -> float:
    """Hugging Face's dynamic NTK base at length ``n``: unchanged for ``n ≤ L``."""
    factor, length = rule["factor"], rule["original_max_position_embeddings"]
    if seq_len <= length:
        return base
    shown = repr(seq_len)
    if len(shown) > 20:  # a huge integer: its first digits and its length
        shown = f"{shown[:6]}… ({len(shown)} digits)"
    culprit = f'seq_len={shown} and scaling["factor"]={factor!r}'
    try:
        bracket = factor * seq_len / length - (factor - 1.0)
    except OverflowError:  # a Python int too large for a float
        bracket = math.inf
    return _raised_base(base, bracket, d_model, culprit)


def rope_frequencies(
    d_model: int, *, base: float = 10000.0, scaling: Any = None, seq_len: Any = None
) -> np.ndarray:
    """Return the ``d/2`` RoPE frequencies ``ω'_i`` after a context-extension rule.

    With ``s = scaling["factor"]``, ``ω_i = base^(−2i/d)``, ``λ_i = 2π/ω_i`` and
    ``L = scaling["original_max_position_embeddings"]``:

    - ``None``: ``ω'_i = ω_i`` (no scaling).
    - ``"linear"`` (position interpolation, Chen et al. 2023): ``ω'_i = ω_i / s``
      for every pair, the same as feeding positions ``p/s``.
    - ``"ntk"`` (NTK-aware, bloc97 2023): a new base ``base·s^(d/(d−2))``, so
      ``ω'_i = ω_i · s^(−2i/(d−2))``: pair 0 unchanged, the last pair divided by ``s``.
    - ``"yarn"`` (Peng et al. 2023, "NTK-by-parts" frequencies): with
      ``i(r) = d·ln(L/(2π r)) / (2 ln base)``, the pair that turns ``r`` times in
      ``L`` positions, ``low = ⌊i(beta_fast)⌋`` and ``high = ⌈i(beta_slow)⌉``
      (no rounding if ``truncate`` is False), clamped to ``[0, d−1]`` (the
      implementations clamp ``low`` from below only. They differ when
      ``i(beta_fast) > d − 1``, that is when every pair turns more than ``beta_fast``
      times in ``L``, which needs a tiny ``d`` or base: there their ramp runs backwards
      and Hugging Face divides every pair by ``s``, while this function, by choice,
      keeps every pair, as YaRN intends for fast pairs; checked against transformers
      5.24.0 in ``tests/libraries``), and the ramp
      ``γ_i = clip((i − low)/(high − low), 0, 1)``:
      ``ω'_i = γ_i·ω_i/s + (1 − γ_i)·ω_i``. Pairs ``i ≤ low`` keep ``ω_i``;
      pairs ``i ≥ high`` get ``ω_i/s``. This is the ramp of the implementations
      (jquesnelle/yarn, Hugging Face): linear in the pair index ``i``, with rounded
      ends; the paper's ramp is linear in ``r_i = L/λ_i`` instead (notebook 09
      compares them). The attention temperature is :func:`yarn_attention_scale`.
    - ``"llama3"`` (Llama 3.1): with ``α = low_freq_factor``, ``β = high_freq_factor``:
      ``ω'_i = ω_i`` if ``λ_i < L/β``; ``ω_i/s`` if ``λ_i > L/α``; otherwise
      ``(1 − t)·ω_i/s + t·ω_i`` with ``t = (L/λ_i − α)/(β − α)``.
    - ``"dynamic"`` (Hugging Face's dynamic NTK, at the current length ``n = seq_len``):
      for ``n > L`` a new base ``base·(s·n/L − (s − 1))^(d/(d−2))``, so
      ``ω'_i = ω_i·(s·n/L − (s − 1))^(−2i/(d−2))``; for ``n ≤ L`` nothing changes. At
      ``n = sL`` the bracket is ``s² − s + 1`` (the NTK "alpha"), so the base is
      multiplied by ``(s² − s + 1)^(d/(d−2))``. (In Hugging Face ``L`` is the config's
      ``max_position_embeddings``; see the module docstring.)

    Introduced in notebook 09 (``"dynamic"`` and ``seq_len`` in notebook 11).

    Parameters
    ----------
    d_model : int
        Positive and even (the rotated dimension, a head's size in a model).
    base : float
        Greater than 1.
    scaling : None or dict
        ``{"rope_type": ..., "factor": s, ...}`` with the keys above; ``s`` finite
        and greater than 0 (below 1, which Hugging Face warns about, the pairs speed
        up: each divisor lies in ``[s, 1]``, not ``[1, s]``); for ``"yarn"``,
        ``beta_fast > beta_slow > 0`` and ``L > 2π·beta_slow``; for ``"llama3"``,
        ``high_freq_factor > low_freq_factor > 0``; ``"ntk"`` and ``"dynamic"`` need
        ``d_model > 2``.
    seq_len : int, optional
        The current length ``n``, a positive integer: required for ``"dynamic"``,
        refused for every other rule (it would change nothing).

    Returns
    -------
    np.ndarray
        ``(d_model // 2,)`` float64 array.

    Raises
    ------
    ValueError, TypeError
        For an unknown ``rope_type``, a missing or unknown key, or a bad value
        (the message names the key); for a missing, bad or unused ``seq_len``.
    """
    d_model = check_d_model(d_model)
    base = check_base(base)
    rule = check_scaling(scaling, d_model)
    seq_len = _check_seq_len(seq_len, rule)
    check_table_size((d_model // 2,), np.float64, name="frequencies")
    omega = frequencies(d_model, base)
    if rule is None:
        return omega
    factor = rule["factor"]
    rope_type = rule["rope_type"]
    if rope_type == "linear":
        return omega / factor
    if rope_type == "ntk":
        new_base = _raised_base(base, factor, d_model, f'scaling["factor"]={factor!r}')
        return new_base ** (-2.0 * np.arange(d_model // 2, dtype=np.float64) / d_model)
    if rope_type == "yarn":
        return _yarn(omega, d_model, base, rule)
    if rope_type == "dynamic":
        new_base = _dynamic_base(base, d_model, rule, seq_len)
        return new_base ** (-2.0 * np.arange(d_model // 2, dtype=np.float64) / d_model)
    return _llama3(omega, rule)


def yarn_attention_scale(factor: float) -> float:
    """Return YaRN's ``√(1/t) = 0.1·ln(s) + 1`` for ``s > 1``, and ``1`` for ``s ≤ 1``.

    YaRN (Peng et al. 2023) divides the attention logits by a temperature
    ``t``: ``softmax(qᵀk / (t·√d))`` with ``√(1/t) = 0.1·ln s + 1``. The
    implementations multiply the cos and sin tables by this number, so each of
    the rotated query and key carries it once and the logits are multiplied by
    its square, ``1/t``. The paper states the formula for ``s > 1`` only. The
    guard ``1`` for ``s ≤ 1`` follows ``get_mscale`` of jquesnelle/yarn
    (``scaled_rope/LlamaYaRNScaledRotaryEmbedding.py`` at commit ``995db5b5``) and
    of Hugging Face release 5.23.0 (``_compute_yarn_parameters``); Hugging Face at
    commit ``ef468064`` has no guard (``0.1·ln s + 1`` for every ``s``, below 1 for
    ``s < 1``). Introduced in notebook 09.

    Parameters
    ----------
    factor : float
        The scaling factor ``s``, finite and greater than 0.
    """
    factor = check_positive_real(factor, "factor")
    if factor <= 1.0:
        return 1.0
    return 0.1 * math.log(factor) + 1.0
