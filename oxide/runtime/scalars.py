"""Rust scalar types as the runtime sees them: numpy dtype, ctypes type, and the check of a Python value.

A value is accepted for a Rust scalar type when Rust would accept it without a cast: an integer (Python int
or numpy integer) in range for an integer type, a real number for a float type, a bool for `bool`. A float
where an integer is expected is an error, not a silent truncation.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


@dataclass(frozen=True)
class ScalarType:
    """One Rust scalar type: `name` (u32, f32, ...), its numpy dtype and ctypes type, its integer range."""

    name: str
    dtype: np.dtype
    ctype: Any
    kind: str  # "int", "float" or "bool"
    low: int = 0
    high: int = 0


def _int(name: str, bits: int, signed: bool) -> ScalarType:
    dtype = np.dtype(f"{'i' if signed else 'u'}{bits // 8}")
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return ScalarType(name, dtype, np.ctypeslib.as_ctypes_type(dtype), "int", low, high)


SCALARS: dict[str, ScalarType] = {
    **{f"i{b}": _int(f"i{b}", b, True) for b in (8, 16, 32, 64)},
    **{f"u{b}": _int(f"u{b}", b, False) for b in (8, 16, 32, 64)},
    "isize": _int("isize", 64, True),
    "usize": _int("usize", 64, False),
    "f32": ScalarType("f32", np.dtype(np.float32), ctypes.c_float, "float"),
    "f64": ScalarType("f64", np.dtype(np.float64), ctypes.c_double, "float"),
    "bool": ScalarType("bool", np.dtype(np.bool_), ctypes.c_bool, "bool"),
}

# MLIR's signless integers, for struct fields whose Rust type the signature does not spell out: they accept
# the union of the signed and unsigned ranges (the bits are the same; `signed_bits` gives the value to pack).
SIGNLESS: dict[str, ScalarType] = {
    f"i{b}": ScalarType(f"i{b}", np.dtype(f"u{b // 8}"), np.ctypeslib.as_ctypes_type(np.dtype(f"u{b // 8}")), "int",
                        -(1 << (b - 1)), (1 << b) - 1)
    for b in (8, 16, 32, 64)
}

# Atomic cells have the layout of their value type.
ATOMIC_ELEMENTS = {
    f"{scope}Atomic{t.upper()}": t
    for scope in ("Device", "Block", "System", "")
    for t in ("u32", "i32", "u64", "i64", "f32", "f64")
}


def signed_bits(number: int, bits: int) -> int:
    """The signed `bits`-wide integer with the same two's complement bits as `number` (-2**(bits-1)..2**bits-1)."""
    number &= (1 << bits) - 1
    return number - (1 << bits) if number >> (bits - 1) else number


def device_address(value: int, fail: Callable[[str], Exception]) -> int:
    """A raw device address given as a Python int, checked to be a 64-bit address (the caller vouches for what
    it points at: unsafe kernels only); `fail(why)` builds the error."""
    if not 0 <= value < 1 << 64:
        raise fail(f"a raw device address must be in 0..2**64, got {value}")
    return value


def convert(value: Any, t: ScalarType) -> Any:
    """The Python value `value` as type `t` (a Python int/float/bool), or raise TypeError saying why not."""
    if t.kind == "bool":
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise TypeError(f"expected a bool, got {_describe(value)}")
    if t.kind == "int":
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"expected an integer ({t.name}), got {_describe(value)}")
        number = int(value)
        if not t.low <= number <= t.high:
            raise TypeError(f"{number} does not fit in {t.name} ({t.low}..={t.high})")
        return number
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"expected a number ({t.name}), got {_describe(value)}")
    return float(value)


def _describe(value: Any) -> str:
    if isinstance(value, np.generic):
        return f"a numpy {value.dtype} ({value!r})"
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}"
    return f"a {type(value).__name__} ({value!r})"
