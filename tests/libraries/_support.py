"""Comparisons with a stated error bound, and the table `make test-libraries` prints.

Every check compares a pe_utils result with a real library's on the same inputs, entry by entry,
against a bound written in the test:

- ``exact``: integers, permutations, ids: equal or the check fails.
- float64 (the library computes in float64): a bound of a few units of 2⁻⁵³ per operation.
- float32 (the library hard-codes float32): an explicit per-entry float32 bound. A sine or cosine of
  ``θ = p·ω`` carries the error of ``ω`` (relative ``ε·k·(1 + |ln ω|)``: ``ω = base^(−x)`` is an
  exponential of a rounded exponent), of the product ``p·ω`` (``ε·|θ|``) and of sin/cos themselves
  (``2ε``), with ``ε = 2⁻²⁴``. A rotated entry ``u cos θ − v sin θ`` carries that error times
  ``|u| + |v|``.

A wrong layout, sign, pairing or factor changes entries by O(1) (or, for a frequency, by a relative
O(1/d)): far above every bound here. Each check records the worst ratio error/bound; the table
printed at the end lists them, one row per convention.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import math
from dataclasses import dataclass

import numpy as np

EPS32 = 2.0**-24  # float32 unit roundoff
EPS64 = 2.0**-53  # float64 unit roundoff


@dataclass
class Row:
    convention: str
    function: str
    library: str
    worst_error: float = 0.0
    worst_ratio: float = 0.0
    cases: int = 0


ROWS: dict[tuple[str, str], Row] = {}
_recording = [True]


@contextlib.contextmanager
def not_recorded():
    """Checks run inside (the planted slips) leave the printed table alone."""
    _recording.append(False)
    try:
        yield
    finally:
        _recording.pop()


def version(library: str) -> str:
    return importlib.metadata.version(library)


def _record(convention: str, function: str, library: str, error: float, ratio: float) -> None:
    if not _recording[-1]:
        return
    row = ROWS.setdefault((convention, function), Row(convention, function, f"{library} {version(library)}"))
    row.worst_error = max(row.worst_error, error)
    row.worst_ratio = max(row.worst_ratio, ratio)
    row.cases += 1


def to_numpy(value) -> np.ndarray:
    if hasattr(value, "detach"):
        value = value.detach().cpu()
        if str(value.dtype) == "torch.bfloat16":
            value = value.float()
        value = value.numpy()
    return np.asarray(value, dtype=np.float64)


def check(actual, expected, bound, *, convention: str, function: str, library: str, what: str = "") -> float:
    """Assert ``|actual − expected| ≤ bound`` entry by entry; record and return the worst ratio.

    ``actual`` is the library's result, ``expected`` pe_utils'. ``bound`` broadcasts against them; a
    bound of 0 means exact equality (NaN equals NaN there).
    """
    actual, expected = to_numpy(actual), to_numpy(expected)
    assert actual.shape == expected.shape, (
        f"{convention}: {function} gives shape {actual.shape}, pe_utils {expected.shape} {what}"
    )
    bound = np.broadcast_to(np.asarray(bound, dtype=np.float64), actual.shape)
    assert np.all(np.isfinite(bound)) and np.all(bound >= 0), f"{convention}: a bound must be finite"
    same = (actual == expected) | (np.isnan(actual) & np.isnan(expected))
    with np.errstate(invalid="ignore", over="ignore"):  # inf − inf, NaN: unequal, error inf
        error = np.where(same, 0.0, np.abs(actual - expected))
    error = np.where(np.isnan(error), np.inf, error)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(error == 0, 0.0, error / bound)
    worst = float(ratio.max()) if ratio.size else 0.0
    worst_error = float(error.max()) if error.size else 0.0
    _record(convention, function, library, worst_error, worst)
    if worst > 1.0:
        index = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
        raise AssertionError(
            f"{convention}: {function} ({library} {version(library)}) and pe_utils differ {what}: at "
            f"{index} the library gives {actual[index]!r}, pe_utils {expected[index]!r}; error "
            f"{error[index]:.3e} > bound {bound[index]:.3e} (ratio {worst:.3g})"
        )
    return worst


def exact(actual, expected, **names) -> float:
    return check(actual, expected, 0.0, **names)


def frequency_bound(omega, eps: float, extra: float = 1.0) -> np.ndarray:
    """Per-entry bound of a frequency ``base^(−x)`` computed in a precision of unit roundoff ``eps``:
    relative ``eps·(2|ln ω| + 8)`` (the exponent's rounding is amplified by ``|ln ω|``), times ``extra``
    for the rules that add or blend two rounded terms (YaRN, Llama 3.1: ``extra = max(s, 1)``)."""
    omega = np.abs(to_numpy(omega))
    with np.errstate(divide="ignore"):
        log = np.where(omega > 0, np.abs(np.log(np.where(omega > 0, omega, 1.0))), 0.0)
    return eps * (2.0 * log + 8.0) * extra * omega + np.finfo(np.float64).tiny


def angle_bound(theta, omega, eps: float, k: float = 6.0) -> np.ndarray:
    """Per-entry bound of ``sin θ`` or ``cos θ`` for ``θ = p·ω`` computed in unit roundoff ``eps``:
    ``eps·(k·(1 + |ln ω|)·|θ| + 2)``."""
    theta = np.abs(to_numpy(theta))
    omega = np.abs(to_numpy(omega))
    with np.errstate(divide="ignore"):
        log = np.where(omega > 0, np.abs(np.log(np.where(omega > 0, omega, 1.0))), 0.0)
    return eps * (k * (1.0 + log) * theta + 2.0)


def rotated_bound(x, theta_cols, omega_cols, eps: float, k: float = 6.0) -> np.ndarray:
    """Bound of each entry of a rotated row: the angle bound of its pair times ``|u| + |v|`` (plus the
    rounding of the products and the sum). ``theta_cols``/``omega_cols`` are per column of ``x``, the
    pair's angle and frequency; ``partner`` is ``x``'s entries' partners, so ``|u| + |v|`` is per column."""
    return angle_bound(theta_cols, omega_cols, eps, k) * x + 4.0 * eps * x


def pair_magnitude(x: np.ndarray, layout: str, rotated: int | None = None) -> np.ndarray:
    """``|u| + |v|`` of each entry's pair (pass-through columns: ``|x|``)."""
    x = np.abs(np.asarray(x, dtype=np.float64))
    out = x.copy()
    r = x.shape[-1] if rotated is None else rotated
    if layout == "interleaved":
        total = x[..., 0:r:2] + x[..., 1:r:2]
        out[..., 0:r:2] = total
        out[..., 1:r:2] = total
    else:
        total = x[..., : r // 2] + x[..., r // 2 : r]
        out[..., : r // 2] = total
        out[..., r // 2 : r] = total
    return out


def columns(values_per_pair: np.ndarray, layout: str, d: int) -> np.ndarray:
    """Spread a per-pair quantity (..., r/2) over the columns (..., d) of its pair; others get 0."""
    values_per_pair = np.asarray(values_per_pair, dtype=np.float64)
    half = values_per_pair.shape[-1]
    out = np.zeros(values_per_pair.shape[:-1] + (d,))
    if layout == "interleaved":
        out[..., 0 : 2 * half : 2] = values_per_pair
        out[..., 1 : 2 * half : 2] = values_per_pair
    else:
        out[..., :half] = values_per_pair
        out[..., half : 2 * half] = values_per_pair
    return out


def table_lines() -> list[str]:
    """The table of what was verified: convention, library function, version, worst error."""
    if not ROWS:
        return []
    header = ("convention", "library function", "version", "cases", "worst |error|", "worst error/bound")
    body = [
        (
            row.convention,
            row.function,
            row.library,
            str(row.cases),
            f"{row.worst_error:.2e}",
            "exact"
            if row.worst_error == 0
            else f"{row.worst_ratio:.3f}"
            if row.worst_ratio <= 1
            else "DIFFERS (an xfail test: see its reason)",
        )
        for row in sorted(ROWS.values(), key=lambda r: (r.library, r.convention))
    ]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    rule = "  ".join("-" * width for width in widths)
    lines = [
        "",
        "Checked against the real libraries (pe_utils beside each library, on the same inputs):",
        "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)),
        rule,
    ]
    lines += ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in body]
    worst = max((row.worst_ratio for row in ROWS.values() if row.worst_ratio <= 1), default=0.0)
    lines.append(
        f"{len(ROWS)} rows; worst error/bound of the agreeing checks: {worst:.3f} (a check fails above 1)"
    )
    return lines


def log_abs(value: float) -> float:
    return abs(math.log(value))
