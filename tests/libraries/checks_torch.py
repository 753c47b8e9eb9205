"""torch's bfloat16 rounding beside ``pe_utils.round_to_bfloat16``, bit for bit."""

from __future__ import annotations

import numpy as np
import torch
from _support import exact, to_numpy

import pe_utils as pe

LIB = "torch"


def float32_cases() -> np.ndarray:
    """Random normals over many scales, exact ties (low 16 bits 0x8000, both parities), float32
    subnormals, values around bfloat16's smallest subnormal, ±0, ±inf, NaN, and values that overflow."""
    rng = np.random.default_rng(20261130)
    normals = (rng.normal(size=20_000) * 10.0 ** rng.uniform(-30, 30, size=20_000)).astype(np.float32)
    bits = rng.integers(0, 2**32, size=20_000, dtype=np.uint64).astype(np.uint32)
    ties = ((bits & np.uint32(0xFFFF0000)) | np.uint32(0x8000)).view(np.float32)
    subnormal = (rng.integers(1, 2**23, size=5_000, dtype=np.uint64).astype(np.uint32)).view(np.float32)
    tiny = np.float32(2.0**-133) * np.array([0.49, 0.5, 0.51, 1.0, 1.5, 2.5], dtype=np.float32)
    # ±0, ±inf, NaN, float32's largest, and the two neighbours of bfloat16's overflow tie (0x7F7F8000)
    patterns = [
        0x00000000,
        0x80000000,
        0x7F800000,
        0xFF800000,
        0x7FC00000,
        0x7F7FFFFF,
        0xFF7FFFFF,
        0x7F7F7FFF,
        0x7F7F8000,
        0x7F7F0000,
    ]
    edges = np.array(patterns, dtype=np.uint32).view(np.float32)
    values = np.concatenate([normals, ties, -ties, subnormal, -subnormal, tiny, edges])
    return values


def check_bfloat16_float32() -> None:
    """Float32 → bfloat16 (round to nearest, ties to even; subnormals; overflow to ±inf): identical."""
    values = float32_cases()
    got = torch.tensor(values).to(torch.bfloat16)
    with np.errstate(invalid="ignore"):  # the random bit patterns include signalling NaNs
        wide = values.astype(np.float64)
    exact(
        got,
        pe.round_to_bfloat16(wide),
        convention="bfloat16 rounding of float32 values (ties to even, subnormals, inf, NaN)",
        function="Tensor.to(torch.bfloat16)",
        library=LIB,
    )


def check_bfloat16_float64_double_rounding() -> None:
    """torch rounds a float64 tensor to bfloat16 through float32 (twice); ``round_to_bfloat16`` rounds once,
    as its docstring says. torch equals ``round_to_bfloat16`` of the float32 value."""
    rng = np.random.default_rng(7)
    values = rng.normal(size=50_000)
    got = torch.tensor(values).to(torch.bfloat16)
    exact(
        got,
        pe.round_to_bfloat16(values.astype(np.float32).astype(np.float64)),
        convention="bfloat16 rounding of float64 values (torch goes through float32)",
        function="Tensor.to(torch.bfloat16) on float64",
        library=LIB,
    )
    assert to_numpy(got).shape == values.shape


CHECKS = {
    name[len("check_") :]: function
    for name, function in sorted(globals().items())
    if name.startswith("check_") and callable(function)
}
