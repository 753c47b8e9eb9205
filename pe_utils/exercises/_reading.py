"""Reading a learner's answer without trusting it, and naming in words what cannot be read.

``read_as(answer, target, budget)`` gives the answer as the kind of ``target``: a word, True/False or a
float64 array of real numbers (0-d for one number), else a ``Refusal`` saying what the answer is and
what to do instead. It never raises, never iterates a generator, and refuses unread (by its size)
anything holding more than ``budget`` numbers.
"""

from __future__ import annotations

import decimal
import math
import numbers
import reprlib
import types
from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

import numpy as np

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 40
_REPR.maxlist = _REPR.maxtuple = 6
_ARRAY = {"threshold": 8, "edgeitems": 2, "precision": 6}


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr`` cut to ``limit`` characters; never raises (a learner's ``__repr__`` may)."""
    try:
        text = np.array2string(value, **_ARRAY) if isinstance(value, np.ndarray) else _REPR.repr(value)
    except Exception:
        return f"<{type(value).__name__} object>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def as_typed(value: float, short: bool = False) -> str:
    """A number as a learner writes it: ``7``, ``0.0001000001`` (``short``: ``1.234e-05``)."""
    if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}" if short and math.isfinite(value) else repr(value)


def shape_words(shape: tuple[int, ...]) -> str:
    """``()`` → "a single number", ``(5,)`` → "5 numbers", else "an array of shape …"."""
    if len(shape) == 1:
        return f"{shape[0]} number" + "s" * (shape[0] != 1)
    return "a single number" if shape == () else f"an array of shape {shape}"


def normalise(text: str) -> str:
    """A word as compared: without case, quotes, end punctuation or repeated spaces."""
    return " ".join(text.split()).strip("'\"`.!? ").lower()


def numbers_written_in(text: str) -> list[str]:
    """The numbers of a text such as ``'4 3 2'`` or ``'4, 3, 2'`` (empty if it holds anything else)."""
    words = text.replace(",", " ").replace(";", " ").split()
    try:
        [float(word) for word in words]
    except ValueError:
        return []
    return words


@dataclass(frozen=True)
class Refusal:
    """Why an answer cannot be read: what was given (``description``), what to do (``advice``), where
    inside a list (``where``: "[2]"), its ``shape`` if it was too big to read, and ``huge`` for a real
    number too large for a float (a wrong value rather than a wrong kind)."""

    description: str
    advice: str = ""
    where: str = ""
    shape: tuple[int, ...] | None = None
    huge: bool = False


def _text_advice(text: str) -> str:
    stripped, found = text.strip(), numbers_written_in(text)
    if numbers_written_in(stripped) == [stripped]:
        return f"write {stripped} without quotes"
    if stripped.startswith(("[", "(")):
        return "write the list itself, without quotes around it"
    if len(found) >= 2:
        more = ", …" * (len(found) > 6)
        return f"write the numbers as a list, without quotes: [{', '.join(found[:6])}{more}]"
    return "type the number itself (digits, without quotes)"


def describe(value: Any) -> tuple[str, str]:
    """``(what it is, what to do instead)`` for an answer that is not a real number."""
    name = type(value).__name__
    if value is None:
        return "None", "did your code forget to produce a value? A function without return gives None"
    if value is Ellipsis:
        return "... (the placeholder)", "replace it with your value"
    if isinstance(value, bool | np.bool_):
        advice = "a comparison gives True or False; give the number itself (1 or 0 if you meant those)"
        return f"the boolean {bool(value)}", advice
    if isinstance(value, str):
        return f"text {short_repr(value)}", _text_advice(value)
    if isinstance(value, bytes):
        return f"bytes {short_repr(value)}", "write plain text in quotes, without the b prefix (or a number)"
    if isinstance(value, complex | np.complexfloating):
        advice = "the answer is a real number; find where the imaginary part comes from"
        if complex(value).imag == 0:
            advice = "its imaginary part is 0: take .real, or find where the complex number comes from"
        return f"the complex number {short_repr(value)}", advice
    if isinstance(value, Mapping):
        entries = f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}"
        return f"a {name} with {entries}", "give the number(s) themselves"
    if isinstance(value, AbstractSet):
        return "a set", "a set has no order and drops repeats; use a list or an array"
    if isinstance(value, types.GeneratorType | Iterator):
        kind = "a generator" if isinstance(value, types.GeneratorType) else "an iterator"
        return kind, "turn it into a list or an array first, e.g. list(...) or np.array(list(...))"
    if isinstance(value, types.ModuleType):
        return f"the module {value.__name__}", "give a value, not a module"
    if isinstance(value, type):
        return f"the class {value.__name__}", "give a value, not a type"
    if callable(value):
        return f"a function ({getattr(value, '__name__', name)})", "call it and give its result"
    if isinstance(value, numbers.Number):
        return f"the number {short_repr(value)}", ""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}", ""
    if isinstance(value, list | tuple | range):
        try:
            return f"a {name} of {len(value)} item" + "s" * (len(value) != 1), ""
        except OverflowError:  # len(range(10**100))
            return f"a {name}", ""
    return f"an object of type {name}", "give a number, a list of numbers or a NumPy array"


#: Arrays of what is not a real number, by dtype kind: (what they hold, what to do instead).
_NOT_REAL = {
    "b": ("of booleans", "give numbers (astype(int) if you meant 0s and 1s)"),
    "c": ("of complex numbers", "take .real if every imaginary part is 0"),
    "U": ("of text", "give numbers, not text"),
    "S": ("of text", "give numbers, not text"),
}


def _read(value: Any, where: str, depth: int, room: list[int]) -> np.ndarray | Refusal:
    """``value`` as float64 (``room[0]``: how many more numbers may be read); a float16/float32
    entry becomes the decimal it prints as (35.3, not 35.29999923…), the digits the learner sees."""
    if depth > 32:
        return Refusal("a list nested too deeply", "give a flat list or a NumPy array", where)
    if (
        isinstance(value, bool | np.bool_ | str | bytes | complex | np.complexfloating)
        or isinstance(value, np.generic)
        and value.dtype.kind not in "iuf"
    ):
        return Refusal(*describe(value), where=where)
    if isinstance(value, np.ma.MaskedArray):
        if masked := int(np.ma.count_masked(value)):
            return Refusal(
                f"a masked array with {masked} masked entr{'y' if masked == 1 else 'ies'}",
                "give a plain array with every entry filled in",
                where,
            )
        value = np.ma.getdata(value)
    if isinstance(value, numbers.Real | decimal.Decimal) and not isinstance(value, np.generic):
        try:
            value = np.array(float(value))
        except OverflowError:
            if not isinstance(value, numbers.Integral):
                raise
            digits = int(abs(value).bit_length() * 0.30102999566398120) + 1  # log10(2): exact or one too many
            digits -= abs(value) < 10 ** (digits - 1)
            return Refusal(f"a number with {digits} digits", "", where, huge=True)
    if isinstance(value, list | tuple | range):
        return _sequence(value, where, depth, room)
    shape = getattr(value, "shape", None)
    if isinstance(value, type) or not hasattr(value, "__array__") or not isinstance(shape, tuple):
        return Refusal(*describe(value), where=where)
    if math.prod(shape) > room[0]:  # an array of any library (NumPy, torch, pandas) is read only if small
        return Refusal(f"an array of shape {shape}", "", where, shape=shape)
    array = np.asarray(value)
    if array.dtype.kind == "O" and array.shape:
        return _sequence(list(array), where, depth, room)
    if array.dtype.kind == "O" and value is array:
        return _read(array.item(), where, depth + 1, room)
    if array.dtype.kind == "O":
        return Refusal(*describe(value), where=where)
    if array.dtype.kind not in "iuf":
        holds, advice = _NOT_REAL.get(array.dtype.kind, (f"of dtype {array.dtype}", "give plain numbers"))
        return Refusal(f"an array of shape {array.shape} {holds}", advice, where)
    room[0] -= array.size
    low = array.dtype.kind == "f" and array.dtype.itemsize < 8
    return array.astype(str).astype(np.float64) if low else array.astype(np.float64)


def _sequence(sequence: list | tuple | range, where: str, depth: int, room: list[int]) -> Any:
    if len(sequence) > room[0]:
        kind = type(sequence).__name__
        return Refusal(f"a {kind} of {len(sequence)} items", "", where, shape=(len(sequence),))
    items = []
    for index in range(len(sequence)):
        items.append(_read(sequence[index], f"{where}[{index}]", depth + 1, room))
        if isinstance(items[-1], Refusal):
            return items[-1]
    for index, item in enumerate(items):
        if item.shape != items[0].shape:
            return Refusal(
                f"a ragged {type(sequence).__name__}: item {where}[0] is "
                f"{shape_words(items[0].shape)} but item {where}[{index}] is "
                f"{shape_words(item.shape)}",
                "every row must have the same length",
            )
    return np.stack(items) if items else np.zeros((0,))


def read_real(value: Any, budget: int) -> np.ndarray | Refusal:
    """The real numbers in ``value`` as a float64 array (0-d for one number), or a ``Refusal``."""
    try:
        return _read(value, "", 0, [budget])
    except Exception as error:  # a list that contains itself, an object whose __len__, __array__, … fails
        return Refusal(
            f"an object of type {type(value).__name__} that cannot be read ({type(error).__name__})",
            "give a number, a list of numbers or a NumPy array",
        )


def read_as(answer: Any, target: str | bool | np.ndarray, budget: int) -> Any:
    """``answer`` as the kind of ``target`` (a word, True/False or a float array), or a ``Refusal``."""
    if isinstance(target, str):
        if isinstance(answer, str):
            return answer
        if isinstance(answer, bool | np.bool_ | int | float | np.number):
            return Refusal(f"the value {short_repr(answer)}", "write the word between quotes, e.g. 'word'")
        return Refusal(describe(answer)[0], "write the word itself between quotes, e.g. 'word'")
    if isinstance(target, bool):
        if isinstance(answer, bool | np.bool_):
            return bool(answer)
        if isinstance(answer, str) and normalise(answer) in ("true", "false"):
            return Refusal(f"text {short_repr(answer)}", f"write {answer.strip()} without quotes")
        return Refusal(describe(answer)[0], "answer True or False, without quotes")
    if isinstance(answer, str) and target.shape == ():
        inside = answer.strip().strip("[]()").strip()
        if len(numbers_written_in(answer)) >= 2:
            advice = "the answer is a single number: write it without quotes"
            return Refusal(f"text {short_repr(answer)}", advice)
        if inside != answer.strip() and len(numbers_written_in(inside)) == 1:
            return Refusal(f"text {short_repr(answer)}", f"write {inside}, without quotes or brackets")
    return read_real(answer, budget)
