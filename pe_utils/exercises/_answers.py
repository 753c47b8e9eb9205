"""Reading a learner's answer without trusting it (private helpers of ``pe_utils.exercises``).

``read_real`` turns an answer into a float64 array of real numbers, or into a
``Refusal`` that says, in words for the learner, what the answer is and what
to do instead. It never raises on the answer itself, never iterates a
generator or an iterator, and never converts more than ``budget`` numbers
(a ``range(10**9)`` or a broadcast view of 10⁹ entries is refused by its size,
without being read). ``describe`` names any object for a message.
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

#: Lists nested deeper than this are refused (a list that contains itself is infinitely deep).
MAX_DEPTH = 32

_REPR = reprlib.Repr()
_REPR.maxstring = 40
_REPR.maxother = 40
_REPR.maxlist = 6
_REPR.maxtuple = 6


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr`` cut to ``limit`` characters; never raises (a learner's ``__repr__`` may)."""
    try:
        if isinstance(value, np.ndarray):
            text = np.array2string(value, threshold=8, edgeitems=2, precision=6)
        else:
            text = _REPR.repr(value)
    except Exception:  # the object's own __repr__ failed
        return f"<{type(value).__name__} object>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_number(value: float) -> str:
    """A real number as a learner would write it: ``7``, ``35.26``, ``1.234e-05``."""
    if not math.isfinite(value):
        return repr(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def count_digits(value: int) -> int:
    """Number of decimal digits of a (possibly huge) Python int, without ``str`` on it."""
    value = abs(int(value))
    if value == 0:
        return 1
    digits = int(value.bit_length() * 0.30102999566398120) + 1  # log10(2); exact or one too many
    return digits if value >= 10 ** (digits - 1) else digits - 1


def shape_words(shape: tuple[int, ...]) -> str:
    """``()`` → "a single number", ``(5,)`` → "5 numbers", else "an array of shape …"."""
    if shape == ():
        return "a single number"
    if len(shape) == 1:
        return f"{shape[0]} number" + ("" if shape[0] == 1 else "s")
    return f"an array of shape {shape}"


@dataclass(frozen=True)
class Refusal:
    """Why an answer cannot be read as what was asked.

    ``description`` names what was given ("text '4'"), ``advice`` says what to do
    ("write 4 without quotes"), ``where`` is the index path of the offending item
    inside a list ("[2]", empty for the answer itself), ``shape`` the answer's shape
    when it is known but the answer was too big to read, and ``huge`` marks a real
    number too large for a float (a wrong value rather than a wrong kind).
    """

    description: str
    advice: str = ""
    where: str = ""
    shape: tuple[int, ...] | None = None
    huge: bool = False


def _text_advice(text: str | bytes) -> str:
    is_bytes = isinstance(text, bytes)
    if is_bytes:
        try:
            text = text.decode()
        except UnicodeDecodeError:
            return "type the number itself, without quotes"
    stripped = text.strip()
    try:
        float(stripped)
    except ValueError:
        if is_bytes:
            return "write plain text in quotes, without the b prefix (or a number without quotes)"
    else:
        return f"write {stripped} without quotes"
    if stripped.startswith(("[", "(")):
        return "write the list itself, without quotes around it"
    numbers_in_text = numbers_written_in(stripped)
    if len(numbers_in_text) >= 2:
        shown = ", ".join(numbers_in_text[:6]) + (", …" if len(numbers_in_text) > 6 else "")
        return f"write the numbers as a list, without quotes: [{shown}]"
    return "type the number itself (digits, without quotes)"


def numbers_written_in(text: str) -> list[str]:
    """The numbers of a text such as ``'4 3 2 1 0'`` or ``'4, 3, 2'`` (empty if it holds anything else)."""
    words = text.replace(",", " ").replace(";", " ").split()
    try:
        for word in words:
            float(word)
    except ValueError:
        return []
    return words


def describe(value: Any) -> tuple[str, str]:
    """``(what it is, what to do instead)`` for an answer that is not a real number."""
    if value is None:
        return "None", "did your code forget to produce a value? A function without return gives None"
    if value is Ellipsis:
        return "... (the placeholder)", "replace it with your value"
    if isinstance(value, bool | np.bool_):
        return (
            f"the boolean {bool(value)}",
            "a comparison gives True or False; give the number itself (1 or 0 if you meant those)",
        )
    if isinstance(value, str | bytes):
        kind = "text" if isinstance(value, str) else "bytes"
        return f"{kind} {short_repr(value)}", _text_advice(value)
    if isinstance(value, complex | np.complexfloating):
        advice = (
            "its imaginary part is 0: take .real, or find where the complex number comes from"
            if complex(value).imag == 0
            else "the answer is a real number; find where the imaginary part comes from"
        )
        return f"the complex number {short_repr(value)}", advice
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
    if isinstance(value, types.ModuleType):
        return f"the module {value.__name__}", "give a value, not a module"
    if isinstance(value, type):
        return f"the class {value.__name__}", "give a value, not a type"
    if callable(value):
        name = getattr(value, "__name__", type(value).__name__)
        return f"a function ({name})", "call it and give its result"
    if isinstance(value, numbers.Number):
        return f"the number {short_repr(value)}", ""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}", ""
    if isinstance(value, list | tuple | range):
        try:
            length = len(value)
            return f"a {type(value).__name__} of {length} item" + ("" if length == 1 else "s"), ""
        except Exception:  # len(range(10**100)) overflows
            return f"a {type(value).__name__}", ""
    return f"an object of type {type(value).__name__}", "give a number, a list of numbers or a NumPy array"


def _array_refusal(array: np.ndarray) -> Refusal | None:
    kind = array.dtype.kind
    if kind in "iuf":
        return None
    what = f"an array of shape {array.shape}"
    if kind == "b":
        return Refusal(f"{what} of booleans", "give numbers (astype(int) if you meant 0s and 1s)")
    if kind == "c":
        return Refusal(f"{what} of complex numbers", "take .real if every imaginary part is 0")
    if kind in "US":
        return Refusal(f"{what} of text (dtype {array.dtype})", "give numbers, not text")
    if kind in "mM":
        return Refusal(f"{what} of dates or times", "give plain numbers")
    return Refusal(f"{what} of dtype {array.dtype}", "give an array of plain numbers")


def _to_float64(array: np.ndarray) -> np.ndarray:
    """float64 values; a float16/float32 entry becomes the decimal it prints as (35.3, not 35.29999923…),
    so that the digits rule sees the digits the learner sees."""
    if array.dtype.kind == "f" and array.dtype.itemsize < 8:
        return array.astype(str).astype(np.float64)
    return np.asarray(array, dtype=np.float64)


class _Reader:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.count = 0

    def read(self, value: Any, where: str, depth: int) -> np.ndarray | Refusal:
        if depth > MAX_DEPTH:
            return Refusal("a list nested too deeply", "give a flat list or a NumPy array", where)
        if isinstance(value, bool | np.bool_ | str | bytes | complex | np.complexfloating):
            return Refusal(*describe(value), where=where)
        if isinstance(value, np.ma.MaskedArray):
            masked = int(np.ma.count_masked(value))
            if masked:
                return Refusal(
                    f"a masked array with {masked} masked " + ("entry" if masked == 1 else "entries"),
                    "give a plain array with every entry filled in",
                    where,
                )
            value = np.ma.getdata(value)
        if isinstance(value, np.ndarray):
            return self._array(value, where, depth)
        if isinstance(value, np.generic):
            refusal = _array_refusal(np.asarray(value))
            if refusal is not None:
                return Refusal(*describe(value), where=where)
            self.count += 1
            converted = _to_float64(np.asarray(value))
            if np.isinf(converted) and np.isfinite(value):  # a long double beyond float64
                return Refusal("a number too large for a float", "", where, huge=True)
            return converted
        if isinstance(value, numbers.Integral):
            self.count += 1
            try:
                return np.array(float(value))
            except OverflowError:
                digits = count_digits(value)
                return Refusal(f"a number with {digits} digits", "", where, huge=True)
        if isinstance(value, numbers.Real | decimal.Decimal):
            self.count += 1
            try:
                return np.array(float(value))
            except (ValueError, OverflowError, TypeError):
                return Refusal(f"the number {short_repr(value)}", "give a plain float", where)
        if isinstance(value, list | tuple | range):
            return self._sequence(value, where, depth)
        shape = getattr(value, "shape", None)
        if (
            not isinstance(value, type)
            and hasattr(value, "__array__")
            and isinstance(shape, tuple)
            and all(isinstance(n, int) for n in shape)
        ):
            # An array from another library (pandas, torch, …): read it only if it is small.
            if math.prod(shape) > self.budget - self.count:
                return Refusal(f"an array of shape {shape}", "", where, shape=shape)
            try:
                array = np.asarray(value)
            except Exception:
                return Refusal(*describe(value), where=where)
            if not isinstance(array, np.ndarray) or array.dtype.kind == "O" and array.shape == ():
                return Refusal(*describe(value), where=where)
            return self.read(array, where, depth + 1)
        return Refusal(*describe(value), where=where)

    def _array(self, array: np.ndarray, where: str, depth: int) -> np.ndarray | Refusal:
        if array.size > self.budget - self.count:
            return Refusal(f"an array of shape {array.shape}", "", where, shape=array.shape)
        if array.dtype.kind == "O":
            if array.shape == ():
                return self.read(array.item(), where, depth + 1)
            return self._sequence(list(array), where, depth)
        refusal = _array_refusal(array)
        if refusal is not None:
            return Refusal(refusal.description, refusal.advice, where)
        self.count += array.size
        return _to_float64(array)

    def _sequence(self, sequence: list | tuple | range, where: str, depth: int) -> np.ndarray | Refusal:
        kind = type(sequence).__name__
        try:
            length = len(sequence)
        except (OverflowError, TypeError, ValueError):  # len(range(10**100)) overflows
            return Refusal(f"a {kind} with too many items to count", "", where, shape=(10**18,))
        if length > self.budget - self.count:
            return Refusal(f"a {kind} of {length} items", "", where, shape=(length,))
        items = []
        for index in range(length):
            item = self.read(sequence[index], f"{where}[{index}]", depth + 1)
            if isinstance(item, Refusal):
                return item
            items.append(item)
        if not items:
            return np.zeros((0,))
        first = items[0].shape
        for index, item in enumerate(items):
            if item.shape != first:
                return Refusal(
                    f"a ragged {kind}: item {where}[0] is {shape_words(first)} but item "
                    f"{where}[{index}] is {shape_words(item.shape)}",
                    "every row must have the same length",
                )
        return np.stack(items)


def read_real(value: Any, budget: int) -> np.ndarray | Refusal:
    """The real numbers in ``value`` as a float64 array (0-d for one number), or a ``Refusal``.

    Accepted: Python ``int``/``float`` (and other real number types), NumPy real
    scalars and real numeric arrays, lists, tuples and ranges of those of a
    consistent shape. Refused: text, booleans, complex numbers, ``None``, dicts,
    sets, generators, functions, classes, modules, masked entries, ragged lists,
    and anything with more than ``budget`` numbers (refused by its size, unread).
    """
    reader = _Reader(budget)
    try:
        return reader.read(value, "", 0)
    except RecursionError:
        return Refusal("a list nested too deeply", "give a flat list or a NumPy array")
    except Exception as error:  # a learner's object whose __len__, __getitem__, … fails
        return Refusal(
            f"{describe(value)[0]} that cannot be read ({type(error).__name__})",
            "give a number, a list of numbers or a NumPy array",
        )


def is_function_like(value: Any) -> bool:
    """True for something a learner can call as a function (not a class)."""
    return callable(value) and not inspect.isclass(value)
