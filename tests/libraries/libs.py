"""Imports of the real libraries, and the float64 variant of a library function.

timm's package ``__init__`` imports torchvision, whose CPU build is not on every machine's disk (the
PyPI build needs CUDA libraries); the suite needs only ``timm.layers.pos_embed_sincos``, so where
torchvision does not import, that module is loaded without the package ``__init__`` (the code run is
timm's own, unchanged).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
import textwrap
import types

import torch


def timm_sincos():
    try:
        return importlib.import_module("timm.layers.pos_embed_sincos")
    except ImportError:
        pass
    for name in [key for key in sys.modules if key == "timm" or key.startswith("timm.")]:
        del sys.modules[name]
    root = importlib.util.find_spec("timm").submodule_search_locations[0]
    for name, path in (("timm", root), ("timm.layers", f"{root}/layers")):
        package = types.ModuleType(name)
        package.__path__ = [path]
        sys.modules[name] = package
    return importlib.import_module("timm.layers.pos_embed_sincos")


#: The replacements that turn a library function's hard-coded float32 into float64.
FLOAT64_EDITS = (
    ("torch.float32", "torch.float64"),
    ("dtype=torch.float)", "dtype=torch.float64)"),
    ("dtype=torch.float,", "dtype=torch.float64,"),
    (".float()", ".double()"),
)


def float64_variant(function):
    """The library's own function, recompiled from its source with float32 replaced by float64.

    Only the dtype changes (``FLOAT64_EDITS``); every other token is the library's. Decorators are
    dropped (``dynamic_rope_update`` is exercised by the float32 originals).
    """
    source = textwrap.dedent(inspect.getsource(function))
    lines = source.splitlines()
    while lines[0].lstrip().startswith("@"):
        lines.pop(0)
    source = "\n".join(lines)
    edited = source
    for old, new in FLOAT64_EDITS:
        edited = edited.replace(old, new)
    assert edited != source or "float" not in source, f"no float32 found in {function.__qualname__}"
    namespace = dict(function.__globals__)
    exec(compile(edited, f"<float64 variant of {function.__qualname__}>", "exec"), namespace)  # noqa: S102
    return namespace[function.__name__]


def as_torch(array, dtype=torch.float64):
    return torch.as_tensor(array, dtype=dtype)
