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
import re
import reprlib
import types
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from typing import Any, NamedTuple

import numpy as np

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 40
_REPR.maxlist = _REPR.maxtuple = 6


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr`` cut to ``limit`` characters; never raises (a learner's ``__repr__`` may)."""
    try:
        array = isinstance(value, np.ndarray)
        text = np.array2string(value, precision=6, threshold=8, edgeitems=2) if array else _REPR.repr(value)
    except Exception:
        return f"<{type(value).__name__} object>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def as_typed(value: float, short: bool = False) -> str:
    """A number as a learner writes it: ``7``, ``0.0001000001`` (``short``: ``1.234e-05``)."""
    if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}" if short and math.isfinite(value) else repr(value)


def normalise(text: str) -> str:
    """A word as compared: without case, quotes, end punctuation or repeated spaces."""
    return " ".join(text.split()).strip("'\"`.!? ").lower()


class Refusal(NamedTuple):
    """Why an answer cannot be read: what was given, what to do instead, where inside a list ("[2]")."""

    description: str
    advice: str = ""
    where: str = ""


def _numbers_in(text: str) -> list[str]:
    """The numbers of a text such as ``'4 3 2'`` or ``'4, 3, 2'`` (empty if it holds anything else)."""
    words = text.replace(",", " ").replace(";", " ").split()
    try:
        [float(word) for word in words]
    except ValueError:
        return []
    return words


def _text_advice(text: str, one: bool = False) -> str:
    """What to do instead of giving numbers as text (``one``: a single number is asked for)."""
    stripped, found = text.strip(), _numbers_in(text)
    inside = stripped.strip("[]()").strip()
    if found == [stripped]:
        return f"write {stripped} without quotes"
    if one and re.fullmatch(r"[+-]?\d+,\d+", stripped):  # '0,2214': a decimal comma ('1,024': thousands?)
        whole, part = stripped.split(",")
        thousands = f", or {whole}{part} if the comma separates thousands" * (len(part) == 3)
        return f"write {whole}.{part} without quotes (a decimal point, not a comma){thousands}"
    if one and re.fullmatch(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?", stripped):  # '1,000,000', '40,889.94'
        return f"write {stripped.replace(',', '')} without quotes (no commas inside a number)"
    separator = ";" if ";" in inside else ", "  # '0,5; 0,25' or '0,5, 0,25': decimal commas in a list
    if separator in inside and re.search(r"\d,\d", inside):
        found = [word.strip().replace(",", ".") for word in inside.split(separator)]
        if _numbers_in(" ".join(found)) == found and not one:
            return (
                f"write the numbers as a list with decimal points, without quotes: [{', '.join(found[:6])}]"
            )
    if one and len(found) >= 2:
        return "the answer is a single number: write it without quotes"
    if one and _numbers_in(inside) == [inside]:
        return f"write {inside}, without quotes or brackets"
    if stripped.startswith(("[", "(")):
        return "write the list itself, without quotes around it"
    if len(found) >= 2:
        return (
            f"write the numbers as a list, without quotes: [{', '.join(found[:6])}{', …' * (len(found) > 6)}]"
        )
    return "type the number itself (digits, without quotes)"


def _complex_advice(value: complex) -> str:
    if complex(value).imag == 0:
        return "its imaginary part is 0: take .real, or find where the complex number comes from"
    return "the answer is a real number; find where the imaginary part comes from"


_LISTED = "turn it into a list or an array first, e.g. list(...) or np.array(list(...))"
_NONE = "did you forget `return`? print(), .sort(), .append() and a function without return give None"
_BOOLEAN = "a comparison gives True or False; give the number itself (1 or 0 if you meant those)"
_KINDS = [  # (type, what a value of it is, what to do instead): the first that fits describes an answer
    (types.NoneType, lambda v: "None", _NONE),
    (types.EllipsisType, lambda v: "... (the placeholder)", "replace it with your value"),
    (
        bytes,
        lambda v: f"bytes {short_repr(v)}",
        "write plain text in quotes, without the b prefix (or a number)",
    ),
    (
        dict,
        lambda v: f"a dict with {len(v)} entr{'y' if len(v) == 1 else 'ies'}",
        "give the number(s) themselves",
    ),
    (bool | np.bool_, lambda v: f"the boolean {bool(v)}", _BOOLEAN),
    (str, lambda v: f"text {short_repr(v)}", _text_advice),
    (complex | np.complexfloating, lambda v: f"the complex number {short_repr(v)}", _complex_advice),
    (AbstractSet, lambda v: "a set", "a set has no order and drops repeats; use a list or an array"),
    (types.GeneratorType, lambda v: "a generator", _LISTED),
    (Iterator, lambda v: "an iterator", _LISTED),
    (types.ModuleType, lambda v: f"the module {getattr(v, '__name__', '?')}", "give a value, not a module"),
    (type, lambda v: f"the class {getattr(v, '__name__', '?')}", "give a value, not a type"),
    (
        Callable,
        lambda v: f"a function ({getattr(v, '__name__', type(v).__name__)})",
        "call it and give its result",
    ),
    (numbers.Number, lambda v: f"the number {short_repr(v)}", ""),
    (np.ndarray, lambda v: f"an array of shape {v.shape}", ""),
    (list | tuple, lambda v: f"a {type(v).__name__} of {len(v)} item{'s' * (len(v) != 1)}", ""),
    (
        object,
        lambda v: f"an object of type {type(v).__name__}",
        "give a number, a list of numbers or a NumPy array",
    ),
]


def _unreadable(value: Any, error: Exception) -> tuple[str, str]:
    what = f"an object of type {type(value).__name__} that cannot be read ({type(error).__name__})"
    return what, "give a number, a list of numbers or a NumPy array"


def describe(value: Any) -> tuple[str, str]:
    """``(what it is, what to do instead)`` for an answer that is not a real number; never raises."""
    try:
        what, advice = next((what, advice) for kind, what, advice in _KINDS if isinstance(value, kind))
        return what(value), advice(value) if callable(advice) else advice
    except Exception as error:  # a learner's __len__, __name__, … may raise
        return _unreadable(value, error)


#: Arrays of what is not a real number, by dtype kind: (what they hold, what to do instead).
_NOT_REAL = {
    "b": ("of booleans", "give numbers (astype(int) if you meant 0s and 1s)"),
    "c": ("of complex numbers", "take .real if every imaginary part is 0"),
    "U": ("of text", "give numbers, not text"),
}


def _read(value: Any, where: str, room: list[int]) -> np.ndarray | Refusal:
    """``value`` as float64 (``room[0]``: how many more numbers may be read); a float16/float32
    entry becomes the decimal it prints as (35.3, not 35.29999923…), the digits the learner sees."""
    if isinstance(value, np.generic) and value.dtype.kind not in "iuf":
        return Refusal(*describe(value), where=where)
    if isinstance(value, np.ma.MaskedArray):
        if masked := int(np.ma.count_masked(value)):
            entries = f"{masked} masked entr{'y' if masked == 1 else 'ies'}"
            return Refusal(f"a masked array with {entries}", "fill in every entry (a plain array)", where)
        value = np.ma.getdata(value)
    if isinstance(value, numbers.Real | decimal.Decimal) and not isinstance(value, bool | np.generic):
        try:
            value = np.array(float(value))
        except OverflowError:  # a number too large for a float: a wrong value rather than a wrong kind
            digits = decimal.Decimal(int(abs(value))).adjusted() + 1
            advice = "far too large in size; the answer is an ordinary-sized number (it fits in a float)"
            advice += "; try hint()"
            return Refusal(f"a value of {digits} digits", advice, where)
    if isinstance(value, list | tuple | range):
        return _sequence(value, where, room)
    if isinstance(value, str) and where:  # an entry of a list: one number
        return Refusal(f"text {short_repr(value)}", _text_advice(value, one=True), where)
    shape = getattr(value, "shape", None)
    if not isinstance(shape, tuple) or not hasattr(value, "__array__"):
        return Refusal(*describe(value), where=where)
    if math.prod(shape) > room[0]:  # an array of any library (NumPy, torch, pandas) is read only if small
        return Refusal(f"an array of shape {shape}", "", where)
    array = np.asarray(value)
    if array.dtype.kind == "O":  # a list of objects, or one (np.array(10**20)): read what it holds
        return _sequence(list(array), where, room) if array.shape else _read(array.item(), where, room)
    if array.dtype.kind not in "iuf":
        kind = array.dtype.kind.replace("S", "U")  # bytes or str: text
        holds, advice = _NOT_REAL.get(kind, (f"of dtype {array.dtype}", "give plain numbers"))
        return Refusal(f"an array of shape {array.shape} {holds}", advice, where)
    room[0] -= array.size
    low = array.dtype.kind == "f" and array.dtype.itemsize < 8
    return array.astype(str).astype(np.float64) if low else array.astype(np.float64)


def _count(shape: tuple[int, ...]) -> str:
    """``()`` → "a single number", ``(5,)`` → "5 numbers", else "an array of shape …"."""
    if len(shape) == 1:
        return f"{shape[0]} number" + "s" * (shape[0] != 1)
    return "a single number" if shape == () else f"an array of shape {shape}"


def _sequence(sequence: list | tuple | range, where: str, room: list[int]) -> np.ndarray | Refusal:
    """A list, tuple, range or object array read item by item: the first item not read is refused."""
    kind = type(sequence).__name__
    if len(sequence) > room[0]:
        return Refusal(f"a {kind} of {len(sequence)} items", "", where)
    items = []
    for index in range(len(sequence)):
        items.append(_read(sequence[index], f"{where}[{index}]", room))
        if isinstance(items[-1], Refusal):
            return items[-1]
    odd = next((index for index, item in enumerate(items) if item.shape != items[0].shape), None)
    if odd is None:
        return np.stack(items) if items else np.zeros((0,))
    sizes = [_count(item.shape) for item in (items[0], items[odd])]
    what = f"a ragged {kind}: item {where}[0] is {sizes[0]} but item {where}[{odd}] is {sizes[1]}"
    return Refusal(what, "every row must have the same length", where)


def read_real(value: Any, budget: int) -> np.ndarray | Refusal:
    """The real numbers in ``value`` as a float64 array (0-d for one number), or a ``Refusal``."""
    try:
        return _read(value, "", [budget])
    except Exception as error:  # a list that contains itself, an object whose __len__, __array__, … fails
        return Refusal(*_unreadable(value, error))


def read_as(answer: Any, target: str | bool | np.ndarray, budget: int) -> Any:
    """``answer`` as the kind of ``target`` (a word, True/False or a float array), or a ``Refusal``."""
    if isinstance(target, str):
        if isinstance(answer, str):
            return str(answer)  # np.str_ too
        return Refusal(describe(answer)[0], "write the word itself between quotes, e.g. 'word'")
    if isinstance(target, bool):
        if isinstance(answer, bool | np.bool_):
            return bool(answer)
        if isinstance(answer, str) and normalise(answer) in ("true", "false"):
            return Refusal(f"text {short_repr(answer)}", f"write {answer.strip()} without quotes")
        return Refusal(
            describe(answer)[0], "answer True or False" + ", without quotes" * isinstance(answer, str)
        )
    if isinstance(answer, str) and target.shape == ():
        return Refusal(f"text {short_repr(answer)}", _text_advice(answer, one=True))
    return read_real(answer, budget)
