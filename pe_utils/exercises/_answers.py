"""Reading a learner's answer without trusting it, and naming it in words.

``read_real(value, budget)`` gives the real numbers of an answer as a float64 array (0-d for one
number) or a ``Refusal`` saying what the answer is and what to do instead. It never raises, never
iterates a generator, and refuses by its size, unread, anything holding more than ``budget`` numbers.
"""

from __future__ import annotations

import decimal
import inspect
import math
import numbers
import reprlib
import types
from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

import numpy as np

MAX_DEPTH = 32  # lists nested deeper are refused (a list that contains itself is infinitely deep)
_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 40
_REPR.maxlist = _REPR.maxtuple = 6


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr`` cut to ``limit`` characters; never raises (a learner's ``__repr__`` may)."""
    try:
        if isinstance(value, np.ndarray):
            text = np.array2string(value, threshold=8, edgeitems=2, precision=6)
        else:
            text = _REPR.repr(value)
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
    if shape == ():
        return "a single number"
    return f"{shape[0]} number" + ("" if shape[0] == 1 else "s") if len(shape) == 1 else f"an array of shape {shape}"


@dataclass(frozen=True)
class Refusal:
    """Why an answer cannot be read: what was given (``description``), what to do (``advice``),
    where inside a list (``where``, e.g. "[2]"), its shape if it was too big to read (``shape``),
    and ``huge`` for a real number too large for a float (a wrong value, not a wrong kind)."""

    description: str
    advice: str = ""
    where: str = ""
    shape: tuple[int, ...] | None = None
    huge: bool = False


def numbers_written_in(text: str) -> list[str]:
    """The numbers of a text such as ``'4 3 2'`` or ``'4, 3, 2'`` (empty if it holds anything else)."""
    words = text.replace(",", " ").replace(";", " ").split()
    try:
        [float(word) for word in words]
    except ValueError:
        return []
    return words


def _text_advice(text: str | bytes) -> str:
    is_bytes = isinstance(text, bytes)
    if is_bytes:
        try:
            text = text.decode()
        except UnicodeDecodeError:
            return "type the number itself, without quotes"
    stripped, found = text.strip(), numbers_written_in(text)
    try:
        float(stripped)
        return f"write {stripped} without quotes"
    except ValueError:
        if is_bytes:
            return "write plain text in quotes, without the b prefix (or a number without quotes)"
    if stripped.startswith(("[", "(")):
        return "write the list itself, without quotes around it"
    if len(found) >= 2:
        return f"write the numbers as a list, without quotes: [{', '.join(found[:6])}{', …' * (len(found) > 6)}]"
    return "type the number itself (digits, without quotes)"


def describe(value: Any) -> tuple[str, str]:
    """``(what it is, what to do instead)`` for an answer that is not a real number."""
    if value is None:
        return "None", "did your code forget to produce a value? A function without return gives None"
    if value is Ellipsis:
        return "... (the placeholder)", "replace it with your value"
    if isinstance(value, bool | np.bool_):
        return (f"the boolean {bool(value)}",
                "a comparison gives True or False; give the number itself (1 or 0 if you meant those)")
    if isinstance(value, str | bytes):
        return f"{'text' if isinstance(value, str) else 'bytes'} {short_repr(value)}", _text_advice(value)
    if isinstance(value, complex | np.complexfloating):
        return f"the complex number {short_repr(value)}", (
            "its imaginary part is 0: take .real, or find where the complex number comes from"
            if complex(value).imag == 0 else "the answer is a real number; find where the imaginary part comes from")
    if isinstance(value, np.generic) and value.dtype.kind in "mM":
        return f"a date or time ({short_repr(value)})", "give a plain number"
    if isinstance(value, Mapping):
        entries = "1 entry" if len(value) == 1 else f"{len(value)} entries"
        return f"a {type(value).__name__} with {entries}", "give the number(s) themselves"
    if isinstance(value, AbstractSet):
        return "a set", "a set has no order and drops repeats; use a list or an array"
    if isinstance(value, types.GeneratorType | Iterator):
        kind = "a generator" if isinstance(value, types.GeneratorType) else "an iterator"
        return kind, "turn it into a list or an array first, e.g. list(...) or np.array(list(...))"
    if isinstance(value, types.ModuleType | type):
        kind = "module" if isinstance(value, types.ModuleType) else "class"
        return f"the {kind} {value.__name__}", f"give a value, not a {'module' if kind == 'module' else 'type'}"
    if callable(value):
        return f"a function ({getattr(value, '__name__', type(value).__name__)})", "call it and give its result"
    if isinstance(value, numbers.Number):
        return f"the number {short_repr(value)}", ""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}", ""
    if isinstance(value, list | tuple | range):
        try:
            return f"a {type(value).__name__} of {len(value)} item" + "s" * (len(value) != 1), ""
        except OverflowError:  # len(range(10**100))
            return f"a {type(value).__name__}", ""
    return f"an object of type {type(value).__name__}", "give a number, a list of numbers or a NumPy array"


_DTYPE_ADVICE = {"b": ("of booleans", "give numbers (astype(int) if you meant 0s and 1s)"),
                 "c": ("of complex numbers", "take .real if every imaginary part is 0"),
                 "m": ("of dates or times", "give plain numbers"), "M": ("of dates or times", "give plain numbers")}


def _not_real(array: np.ndarray, where: str) -> Refusal | None:
    """The refusal of an array whose dtype is not real numbers (``None`` if it is)."""
    kind, what = array.dtype.kind, f"an array of shape {array.shape}"
    if kind in "iuf":
        return None
    if kind in "US":
        return Refusal(f"{what} of text (dtype {array.dtype})", "give numbers, not text", where)
    words, advice = _DTYPE_ADVICE.get(kind, (f"of dtype {array.dtype}", "give an array of plain numbers"))
    return Refusal(f"{what} {words}", advice, where)


def _float64(array: np.ndarray) -> np.ndarray:
    """float64; a float16/float32 entry becomes the decimal it prints as (35.3, not 35.29999923…)."""
    return array.astype(str).astype(np.float64) if array.dtype.kind == "f" and array.dtype.itemsize < 8 \
        else np.asarray(array, dtype=np.float64)


def _read(value: Any, where: str, depth: int, room: list[int]) -> np.ndarray | Refusal:
    """``value`` as float64; ``room[0]`` is how many more numbers may be read."""
    if depth > MAX_DEPTH:
        return Refusal("a list nested too deeply", "give a flat list or a NumPy array", where)
    if isinstance(value, bool | np.bool_ | str | bytes | complex | np.complexfloating):
        return Refusal(*describe(value), where=where)
    if isinstance(value, np.ma.MaskedArray):
        masked = int(np.ma.count_masked(value))
        if masked:
            return Refusal(f"a masked array with {masked} masked " + ("entry" if masked == 1 else "entries"),
                           "give a plain array with every entry filled in", where)
        value = np.ma.getdata(value)
    if isinstance(value, np.generic):
        if value.dtype.kind not in "iuf":
            return Refusal(*describe(value), where=where)
        room[0] -= 1
        number = _float64(np.asarray(value))
        if np.isinf(number) and np.isfinite(value):  # a long double beyond float64
            return Refusal("a number too large for a float", "", where, huge=True)
        return number
    if isinstance(value, numbers.Real | decimal.Decimal):
        room[0] -= 1
        try:
            return np.array(float(value))
        except (ValueError, OverflowError, TypeError):
            if not isinstance(value, numbers.Integral):
                return Refusal(f"the number {short_repr(value)}", "give a plain float", where)
        digits = int(abs(value).bit_length() * 0.30102999566398120) + 1  # log10(2): exact or one too many
        digits -= abs(value) < 10 ** (digits - 1)
        return Refusal(f"a number with {digits} digits", "", where, huge=True)
    if isinstance(value, list | tuple | range):
        return _sequence(value, where, depth, room)
    shape = value.shape if isinstance(value, np.ndarray) else getattr(value, "shape", None)
    if isinstance(value, type) or not hasattr(value, "__array__") or not isinstance(shape, tuple) \
            or not all(isinstance(n, int) for n in shape):
        return Refusal(*describe(value), where=where)
    if math.prod(shape) > room[0]:  # an array of any library (NumPy, torch, pandas) is read only if small
        return Refusal(f"an array of shape {shape}", "", where, shape=shape)
    if not isinstance(value, np.ndarray):
        try:
            array = np.asarray(value)
        except Exception:
            return Refusal(*describe(value), where=where)
        return _read(array, where, depth + 1, room) if array.dtype.kind != "O" or array.shape \
            else Refusal(*describe(value), where=where)
    if value.dtype.kind == "O":
        return _read(value.item(), where, depth + 1, room) if value.shape == () \
            else _sequence(list(value), where, depth, room)
    room[0] -= value.size
    return _not_real(value, where) or _float64(value)


def _sequence(sequence: list | tuple | range, where: str, depth: int, room: list[int]) -> np.ndarray | Refusal:
    kind = type(sequence).__name__
    try:
        length = len(sequence)
    except OverflowError:  # len(range(10**100))
        return Refusal(f"a {kind} with too many items to count", "", where, shape=(10**18,))
    if length > room[0]:
        return Refusal(f"a {kind} of {length} items", "", where, shape=(length,))
    items = []
    for index in range(length):
        item = _read(sequence[index], f"{where}[{index}]", depth + 1, room)
        if isinstance(item, Refusal):
            return item
        items.append(item)
    for index, item in enumerate(items):
        if item.shape != items[0].shape:
            return Refusal(f"a ragged {kind}: item {where}[0] is {shape_words(items[0].shape)} but item "
                           f"{where}[{index}] is {shape_words(item.shape)}", "every row must have the same length")
    return np.stack(items) if items else np.zeros((0,))


def read_real(value: Any, budget: int) -> np.ndarray | Refusal:
    """The real numbers in ``value`` as a float64 array (0-d for one number), or a ``Refusal``.

    Read: Python and NumPy real numbers, real arrays (of any library, if small), and lists,
    tuples and ranges of those of one shape. Refused: anything else, and more than ``budget`` numbers.
    """
    try:
        return _read(value, "", 0, [budget])
    except RecursionError:
        return Refusal("a list nested too deeply", "give a flat list or a NumPy array")
    except Exception as error:  # a learner's object whose __len__, __array__, … fails
        return Refusal(f"{describe(value)[0]} that cannot be read ({type(error).__name__})",
                       "give a number, a list of numbers or a NumPy array")


def is_function_like(value: Any) -> bool:
    """True for something a learner can call as a function (not a class)."""
    return callable(value) and not inspect.isclass(value)
