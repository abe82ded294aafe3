"""Packed half conversions of two f32 values into one 32-bit register (`cvt.{rn,rz}[.relu].{f16x2,bf16x2}.f32`,
cuda_device's `convert::cvt_*x2_f32`): the first value lands in the low half, the second in the high half."""

from __future__ import annotations

from typing import Any

import numpy as np

_CANONICAL_NAN = {"bf16x2": np.uint32(0x7FFF), "f16x2": np.uint32(0x7FFF)}


def _bf16_bits(x: np.ndarray, rounding: str) -> np.ndarray:
    bits = x.view(np.uint32)
    if rounding == "rn":  # round to nearest, ties to even
        rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    else:  # rz: drop the low half
        rounded = bits >> np.uint32(16)
    return np.where(np.isnan(x), _CANONICAL_NAN["bf16x2"], rounded).astype(np.uint32)


def _f16_bits(x: np.ndarray, rounding: str) -> np.ndarray:
    with np.errstate(over="ignore"):
        half = x.astype(np.float16)  # round to nearest, ties to even
    if rounding == "rz":
        # A value rounded away from zero steps back one ulp towards zero (an overflow to inf becomes the largest
        # finite half, as round-towards-zero gives).
        away = np.abs(half.astype(np.float32)) > np.abs(x)
        half = np.where(away, np.nextafter(half, np.float16(0)), half)
    bits = half.view(np.uint16).astype(np.uint32)
    return np.where(np.isnan(x), _CANONICAL_NAN["f16x2"], bits).astype(np.uint32)


def pack_halves(lo: Any, hi: Any, kind: str, rounding: str, relu: bool) -> np.ndarray:
    """The packed register (as int32 bits) of two f32 values converted to `kind` ("f16x2" or "bf16x2")."""
    halves = []
    for value in (lo, hi):
        x = np.asarray(value, np.float32)
        if relu:
            x = np.where(np.isnan(x), x, np.maximum(x, np.float32(0)))
        halves.append(_bf16_bits(x, rounding) if kind == "bf16x2" else _f16_bits(x, rounding))
    return ((halves[1] << np.uint32(16)) | halves[0]).astype(np.uint32).view(np.int32)
