"""fp8 (e4m3fn, e5m2) on the emulator: every byte's value, and the rounding of wider floats to fp8 as PTX's
`cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32` does it (round to nearest, ties to even; a magnitude above the largest
finite value, infinities included, becomes that value with its sign; NaN becomes the canonical NaN 0x7F).

Element names are the MLIR ones (`f8E4M3FN`, `f8E5M2`) or wgmma's (`e4m3`, `e5m2`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

FP8_TYPES = ("f8E4M3FN", "f8E5M2")
_KIND = {"f8E4M3FN": "e4m3", "f8E5M2": "e5m2", "e4m3": "e4m3", "e5m2": "e5m2"}
# (mantissa bits, exponent bias, largest finite value, the byte of the largest finite value)
_FORMAT = {"e4m3": (3, 7, 448.0, 0x7E), "e5m2": (2, 15, 57344.0, 0x7B)}
NAN_BYTE = 0x7F


def _e4m3_table() -> np.ndarray:
    """float32 of every e4m3 byte: 4 exponent bits (bias 7), 3 mantissa bits, no infinities, S.1111.111 NaN."""
    code = np.arange(256)
    exponent, mantissa = code >> 3 & 0xF, code & 7
    magnitude = np.where(exponent == 0, mantissa / 8 * 2.0 ** -6, (1 + mantissa / 8) * 2.0 ** (exponent - 7))
    values = np.where(code & 0x80, -magnitude, magnitude).astype(np.float32)
    values[(code & 0x7F) == 0x7F] = np.nan
    return values


# e5m2 is the high byte of an f16 (5 exponent bits, bias 15, 2 mantissa bits, IEEE inf and NaN).
_TABLES = {"e4m3": _e4m3_table(),
           "e5m2": (np.arange(256, dtype=np.uint16) << 8).view(np.float16).astype(np.float32)}


def decode(raw: Any, elem: str) -> np.ndarray:
    """The float32 value of each fp8 byte (exact)."""
    return _TABLES[_KIND[elem]][np.asarray(raw).astype(np.uint8)]


def encode(x: Any, elem: str) -> np.ndarray:
    """The fp8 bytes (uint8) of float values, rounded as `cvt.rn.satfinite` rounds (see the module docstring)."""
    kind = _KIND[elem]
    mantissa_bits, bias, largest, largest_byte = _FORMAT[kind]
    x = np.asarray(x, np.float64)
    magnitude = np.abs(np.where(np.isnan(x), 0.0, x))
    _, exponent = np.frexp(magnitude)
    # The spacing of fp8 values around the magnitude; below the smallest normal it is the subnormal spacing.
    quantum = np.ldexp(1.0, np.maximum(exponent - 1, 1 - bias) - mantissa_bits)
    rounded = np.minimum(np.round(magnitude / quantum) * quantum, largest)  # np.round: ties to even
    finite = _TABLES[kind][:largest_byte + 1].astype(np.float64)
    code = np.searchsorted(finite, rounded).astype(np.uint8)
    code |= np.where(np.signbit(x), np.uint8(0x80), np.uint8(0))
    return np.where(np.isnan(x), np.uint8(NAN_BYTE), code).astype(np.uint8)


def round_to(x: Any, elem: str) -> Any:
    """Float values rounded to fp8 `elem`, as float32 (how the tile emulator computes fp8 tiles)."""
    return decode(encode(x, elem), elem)[()]


def pack_pair(low: Any, high: Any, kind: str) -> np.ndarray:
    """`cvt.rn.satfinite.<kind>.f32 d, high, low`: the 16-bit register (as int16) of two converted values."""
    elem = kind.removesuffix("x2")
    lo, hi = encode(low, elem).astype(np.uint16), encode(high, elem).astype(np.uint16)
    return (lo | (hi << np.uint16(8))).view(np.int16)
