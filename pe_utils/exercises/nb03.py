"""Exercises of notebook 03, the sinusoidal formula.

``PE(p)[2i] = sin(p ω_i)``, ``PE(p)[2i+1] = cos(p ω_i)`` with
``ω_i = base^(−2i/d)``, ``i = 0 … d/2 − 1``, and wavelength ``λ_i = 2π/ω_i``.
Usage::

    from pe_utils.exercises import nb03
    answer = ...
    nb03.wavelength_of_last_pair.check(answer)
"""

from __future__ import annotations

import math

import numpy as np

from . import CheckResult, Exercise, FunctionExercise
from ._reading import read_real

BASE = 10000.0


def _omega(d_model: int, base: float = BASE, exponent_scale: float = 2.0) -> np.ndarray:
    """``base^(−scale·i/d)`` for ``i = 0 … d/2 − 1`` (scale 2 is the right one)."""
    pair_index = np.arange(d_model // 2, dtype=np.float64)
    return base ** (-exponent_scale * pair_index / d_model)


# --- 1. the wavelength of the last pair --------------------------------------

WAVELENGTH_D = 32  # not 16: notebook 02 prints the wavelengths for d = 16
_LAST = WAVELENGTH_D // 2 - 1  # the last pair index, d/2 − 1

wavelength_of_last_pair = Exercise(
    question=(
        f"For d = {WAVELENGTH_D} and base = {BASE:g}, what is the wavelength λ (in positions) "
        f"of the last pair, i = {_LAST}? Give it to 5 significant digits."
    ),
    expected=2 * math.pi * BASE ** (2 * _LAST / WAVELENGTH_D),
    hint=(
        "λ_i = 2π / ω_i = 2π · base^(2i/d). The last pair has i = d/2 − 1, so the exponent "
        "is (d − 2)/d, not 1."
    ),
    solution=(
        f"d, base = {WAVELENGTH_D}, {BASE:g}\n"
        "i = d // 2 - 1                        # last pair\n"
        "answer = 2 * np.pi * base ** (2 * i / d)   # = 2π·base^((d−2)/d), just under 2π·base\n"
        "# check: pe_utils.wavelengths(d, base)[-1]"
    ),
    mistakes=[
        (
            2 * math.pi * BASE,
            "That is 2π·base, the common misstatement. The last pair has i = d/2 − 1, so "
            "λ = 2π·base^((d−2)/d), a factor base^(−2/d) shorter.",
        ),
        (
            2 * math.pi * BASE ** (_LAST / WAVELENGTH_D),
            "Your exponent is i/d. With i the pair index the frequency is base^(−2i/d), "
            "so the wavelength is 2π·base^(2i/d).",
        ),
        (
            2 * math.pi * BASE ** ((WAVELENGTH_D - 1) / WAVELENGTH_D),
            "You used the dimension index d − 1 in the exponent. The last pair (dimensions "
            "d − 2 and d − 1) has exponent 2i/d with i = d/2 − 1, that is (d − 2)/d.",
        ),
        (
            360 * BASE ** (2 * _LAST / WAVELENGTH_D),
            "That is the wavelength in degrees (one turn = 360). The angles are in radians: one turn is 2π.",
        ),
        (
            BASE ** (2 * _LAST / WAVELENGTH_D),
            "That is 1/ω, the positions per radian. One full turn takes 2π radians: λ = 2π/ω.",
        ),
        (
            BASE ** (-2 * _LAST / WAVELENGTH_D),
            "That is the frequency ω (radians per position). The wavelength is 2π/ω.",
        ),
    ],
    significant=5,
)


# --- 2. one row of the table -------------------------------------------------


def _interleave(sines: np.ndarray, cosines: np.ndarray) -> np.ndarray:
    row = np.empty(2 * sines.size)
    row[0::2] = sines
    row[1::2] = cosines
    return row


def _reference_row(p: float, d: int) -> np.ndarray:
    angles = p * _omega(d)
    return _interleave(np.sin(angles), np.cos(angles))


def _swapped_row(p: float, d: int) -> np.ndarray:
    angles = p * _omega(d)
    return _interleave(np.cos(angles), np.sin(angles))


def _next_pair_row(p: float, d: int) -> np.ndarray:
    angles = p * _omega(d) * BASE ** (-2.0 / d)  # ω_{i+1} in place of ω_i
    return _interleave(np.sin(angles), np.cos(angles))


def _dimension_index_row(p: float, d: int) -> np.ndarray:
    angles = p * _omega(d, exponent_scale=1.0)
    return _interleave(np.sin(angles), np.cos(angles))


def _per_column_row(p: float, d: int) -> np.ndarray:
    """One frequency per column: ``base^(−j/d)`` with the dimension index ``j``."""
    angles = p * BASE ** (-np.arange(d, dtype=np.float64) / d)
    return np.where(np.arange(d) % 2 == 0, np.sin(angles), np.cos(angles))


def _degrees_row(p: float, d: int) -> np.ndarray:
    angles = np.deg2rad(p * _omega(d))
    return _interleave(np.sin(angles), np.cos(angles))


def _from_one_row(p: float, d: int) -> np.ndarray:
    return _reference_row(p + 1, d)


def _concatenated_row(p: float, d: int) -> np.ndarray:
    angles = p * _omega(d)
    return np.concatenate([np.sin(angles), np.cos(angles)])


ROW_CASES = ((0, 8), (1, 8), (3, 8), (17, 16), (250, 6), (1000, 32))

_INTEGER_POWER = (
    " NumPy refuses a whole-number base raised to negative whole-number powers (it would need "
    "fractions): write the base as a float, 10000.0, and divide with /, not //, so that the "
    "exponent −2i/d is a fraction too."
)


class _RowExercise(FunctionExercise):
    """``pe_row``: NumPy's own functions and integer powers get a message of their own."""

    def _check(self, answer: object) -> CheckResult:
        if isinstance(answer, np.ufunc):
            return CheckResult(
                False,
                f"That is NumPy's np.{answer.__name__} itself, not a function of (p, d). Write "
                "def pe_row(p, d): … return row in the cell, then give it: answer = pe_row.",
            )
        result = super()._check(answer)
        if "Integers to negative integer powers" in result.message:
            return CheckResult(False, result.message + _INTEGER_POWER)
        return result


pe_row = _RowExercise(
    question=(
        "Write pe_row(p, d) that returns PE(p) as a length-d array (base 10000, interleaved): "
        "entry 2i is sin(p ω_i), entry 2i+1 is cos(p ω_i), ω_i = 10000^(−2i/d)."
    ),
    reference=_reference_row,
    cases=ROW_CASES,
    hint=(
        "i = np.arange(d // 2) gives the pair indices; ω = 10000 ** (-2 * i / d). Fill an empty "
        "length-d array: row[0::2] = sin(p ω) and row[1::2] = cos(p ω)."
    ),
    solution=(
        "def pe_row(p, d):\n"
        "    i = np.arange(d // 2)\n"
        "    omega = 10000.0 ** (-2 * i / d)\n"
        "    row = np.empty(d)\n"
        "    row[0::2] = np.sin(p * omega)\n"
        "    row[1::2] = np.cos(p * omega)\n"
        "    return row\n"
        "answer = pe_row\n"
        "# check: pe_utils.encode_positions(p, d)"
    ),
    mistakes=[
        (
            _swapped_row,
            "sin and cos are swapped: the even entries 2i hold sin(p ω_i) and the odd entries "
            "2i+1 hold cos(p ω_i), so PE(0) = [0, 1, 0, 1, …].",
        ),
        (
            _next_pair_row,
            "Your frequencies are off by one pair: pair i uses ω_i = 10000^(−2i/d) with "
            "i starting at 0, so pair 0 has ω_0 = 1.",
        ),
        (
            _dimension_index_row,
            "Your exponent is −i/d. With i the pair index it is −2i/d "
            "(equivalently −j/d with j = 2i the even dimension).",
        ),
        (
            _per_column_row,
            "Your cosines have their own frequencies: column 2i+1 uses 10000^(−(2i+1)/d). "
            "Both entries of pair i share one frequency, ω_i = 10000^(−2i/d), so that "
            "each pair is a point on a circle.",
        ),
        (
            _degrees_row,
            "Your angles were treated as degrees. p ω_i is already in radians: pass it to "
            "np.sin and np.cos directly.",
        ),
        (
            _from_one_row,
            "You returned PE(p + 1): positions start at 0, so pe_row(0, d) must be "
            "[sin 0, cos 0, …] = [0, 1, 0, 1, …].",
        ),
        (
            _concatenated_row,
            "That is the concatenated layout [sin …, cos …]. The paper's layout interleaves "
            "them: sin at even entries, cos at odd entries.",
        ),
    ],
)


# --- 3. where a number sits in the concatenated layout ---------------------

COLUMN_D = 16
COLUMN_PAIR = 3

cos_column_concatenated = Exercise(
    question=(
        f"For d = {COLUMN_D}, in the concatenated layout [sin …, cos …], which column index "
        f"(counting from 0) holds cos(p ω_{COLUMN_PAIR})? Give an integer."
    ),
    expected=COLUMN_D // 2 + COLUMN_PAIR,
    hint=(
        "The first d/2 columns are the sines of pairs 0 … d/2 − 1; the cosines follow in the "
        "same pair order. Or: look up where column 2i+1 of the interleaved table goes with "
        "pe_utils.layout_permutation(d)."
    ),
    solution=(
        f"d, i = {COLUMN_D}, {COLUMN_PAIR}\n"
        "answer = d // 2 + i\n"
        "# check: layout_permutation(d)[answer] == 2 * i + 1  (concatenated = interleaved[:, order])"
    ),
    mistakes=[
        (
            2 * COLUMN_PAIR + 1,
            "That is the column of cos(p ω_i) in the interleaved layout (2i + 1). In the "
            "concatenated layout the cosines start after the d/2 sines.",
        ),
        (
            COLUMN_PAIR,
            "That column holds sin(p ω_i). The cosines come after all d/2 sines.",
        ),
        (
            COLUMN_D // 2,
            "Column d/2 holds the cosine of pair 0, the first cosine after the d/2 sines. "
            "Pair i's cosine sits i columns further on.",
        ),
        (
            COLUMN_D // 2 + COLUMN_PAIR - 1,
            "Off by one: the cosine of pair 0 is at column d/2, so pair i is at d/2 + i.",
        ),
        (
            COLUMN_D // 2 + COLUMN_PAIR + 1,
            "Off by one: pairs count from i = 0, whose cosine is at column d/2, so pair i is at d/2 + i.",
        ),
    ],
)

# --- 4. a position read back from its row (the checkpoint after the formula) -----

ROW_D = 8  # ω_i = 10^(−i): 1, 0.1, 0.01, 0.001, as in section 1 of the notebook
ROW_P = 20  # pair 0 has turned 20 radians, more than three turns: alone it cannot tell
ROW_DECIMALS = 4
ROW_OMEGA = _omega(ROW_D)
ROW_SHOWN = np.round(_reference_row(ROW_P, ROW_D), ROW_DECIMALS)  # the row the learner reads
ROW_TEXT = "[" + ", ".join(f"{value:.{ROW_DECIMALS}f}" for value in ROW_SHOWN) + "]"


def _angle_of_pair(i: int) -> float:
    """Pair i's angle, as ``arctan2`` reads it from the printed row: in (−π, π]."""
    return float(np.arctan2(ROW_SHOWN[2 * i], ROW_SHOWN[2 * i + 1]))


_ONE_TURN_OF_PAIR_0 = (
    "That is pair 0's angle, taken back into a single turn. Pair 0 turns once every 2π ≈ 6.28 "
    "positions, so p and p + 6.28, p + 12.57, … look alike there. Read a slower pair, whose angle "
    "p·ω_i has not yet made a full turn, and divide by its ω_i."
)

_WHOLE_TURNS = (
    "That is pair 0's angle plus {k} whole turn{s}. Pair 0 turns once every 2π ≈ 6.28 "
    "positions, so it cannot tell p from p ± 6.28, p ± 12.57, …: it cannot count its turns. "
    "Read a slower pair, whose angle p·ω_i has not yet made a full turn, and divide by its ω_i."
)


class _PositionExercise(Exercise):
    """``position_from_row``: a number near p − 2πm (m = 1, 2, 3), however rounded, is pair 0's."""

    def _check(self, answer: object) -> CheckResult:
        result = super()._check(answer)
        if result or result.message.startswith("Not quite. ") or isinstance(answer, bool):
            return result
        read = read_real(answer, 16)
        if isinstance(read, np.ndarray) and read.size == 1 and np.isfinite(read).all():
            for m in (1, 2, 3):
                if abs(float(read.ravel()[0]) - (ROW_P - 2 * math.pi * m)) < 0.01:
                    text = _ONE_TURN_OF_PAIR_0 if m == 3 else _WHOLE_TURNS.format(k=3 - m, s="s" * (m < 2))
                    return CheckResult(False, f"Not quite. {text}")
        return result


position_from_row = _PositionExercise(
    question=(
        f"For d = {ROW_D} (ω_i = 1, 0.1, 0.01, 0.001), one row of the table reads, to "
        f"{ROW_DECIMALS} decimals, {ROW_TEXT}. Which position p is it? Give a whole number."
    ),
    expected=ROW_P,
    hint=(
        "Each pair (sin, cos) is the angle p·ω_i on its circle: np.arctan2(sin, cos) gives it "
        "back, up to whole turns. A slow pair has not turned far yet: its angle divided by its ω_i "
        "is p."
    ),
    solution=(
        f"sin_2, cos_2 = {ROW_SHOWN[4]:.{ROW_DECIMALS}f}, {ROW_SHOWN[5]:.{ROW_DECIMALS}f}"
        "   # pair 2, ω_2 = 0.01: less than one turn so far\n"
        "answer = round(float(np.arctan2(sin_2, cos_2) / 0.01))\n"
        "# pair 0 agrees: np.sin(answer), np.cos(answer) are the first two numbers of the row"
    ),
    mistakes=[
        (_angle_of_pair(0), _ONE_TURN_OF_PAIR_0),
        (float(np.arcsin(ROW_SHOWN[0])), _ONE_TURN_OF_PAIR_0),
        (ROW_P - 6 * math.pi, _ONE_TURN_OF_PAIR_0),  # the same, from the exact angle 20
        *(  # pair 0's angle plus one or two turns: 7.43 and 13.72
            (ROW_P - 2 * math.pi * m, _WHOLE_TURNS.format(k=3 - m, s="s" * (m < 2))) for m in (1, 2)
        ),
        (
            float(np.arcsin(ROW_SHOWN[2]) / ROW_OMEGA[1]),
            "arcsin alone cannot tell the angle x from π − x. Pair 1's cosine is negative, so its "
            "angle is past a quarter turn: use np.arctan2(sin, cos), which reads both.",
        ),
        *(
            (angle, "That is the angle of pair 1, p·ω_1. Divide it by ω_1 = 0.1 to get p.")
            for angle in (_angle_of_pair(1), ROW_P * ROW_OMEGA[1])  # as read, and exact
        ),
        *(
            (angle, "That is the angle of pair 2, p·ω_2. Divide it by ω_2 = 0.01 to get p.")
            for angle in (_angle_of_pair(2), ROW_P * ROW_OMEGA[2])  # as read, and exact
        ),
        *(
            (angle, "That is the angle of pair 3, p·ω_3. Divide it by ω_3 = 0.001 to get p.")
            for angle in (float(np.arcsin(ROW_SHOWN[6])), ROW_P * ROW_OMEGA[3])  # as read, and exact
        ),
    ],
)


# --- 5. find the slip ---------------------------------------------------------

SLIPS = ("degrees", "exponent", "per column", "from one", "concatenated")
SLIP_ROW_1 = (math.sin(math.pi / 180), math.cos(math.pi / 180))  # the slip's pair 0 at p = 1


which_slip = Exercise(
    question=(
        "A colleague's table for d = 64 has row 0 = [0, 1, 0, 1, …] and ‖PE(p)‖² = 32 in every "
        f"row, but its row 1 starts [{SLIP_ROW_1[0]:.4f}, {SLIP_ROW_1[1]:.4f}, …] where the right "
        "table has [0.8415, 0.5403, …]. Which slip made it: 'degrees', 'exponent' (−i/d with the "
        "pair index), 'per column' (−j/d with the dimension index), 'from one' (positions counted "
        "from 1) or 'concatenated' (all sines first)?"
    ),
    expected="degrees",
    aliases={"degree": "degrees"},
    hint=(
        "Pair 0 of the right table turns ω_0 = 1 radian per position. By what angle has the "
        "colleague's pair 0 turned at row 1 (np.arctan2 of its first two numbers)? Which slip "
        "changes pair 0's speed, and where have you met that angle before?"
    ),
    solution=(
        "answer = 'degrees'\n"
        "# row 1's pair 0 is at angle 0.01745 = π/180 radians: one degree, not one radian.\n"
        "# sin(p·ω_0·π/180) repeats every 360 positions; the other slips leave pair 0 at one\n"
        "# radian per position, or change row 0 or the norms."
    ),
    mistakes=[
        (
            "exponent",
            "Slip (a), −i/d with the pair index, changes the slower pairs only: pair 0 keeps "
            "ω_0 = 1 and turns one radian per position, so row 1 would start [0.8415, 0.5403].",
        ),
        (
            "per column",
            "One frequency per column gives each cosine its own frequency, so pairs leave their "
            "circles and ‖PE(p)‖² changes from row to row instead of staying 32. Pair 0's sine "
            "would still be sin 1 = 0.8415 at row 1.",
        ),
        (
            "from one",
            "Counting from 1 makes row 0 PE(1) = [sin 1, cos 1, …], not [0, 1, 0, 1, …]; and "
            "pair 0 would still turn one radian per row.",
        ),
        (
            "concatenated",
            "All sines first makes row 0 [0, …, 0, 1, …, 1], not [0, 1, 0, 1, …]; and a column "
            "order changes no angle.",
        ),
    ],
    choices=SLIPS,
)

__all__ = [
    "cos_column_concatenated",
    "pe_row",
    "position_from_row",
    "wavelength_of_last_pair",
    "which_slip",
]
