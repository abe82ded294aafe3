"""Value semantics of the emulator: GPU integer and float arithmetic on numpy scalars and lane vectors.

A value is a numpy scalar (the same for every lane: uniform) or a 1-D array with one element per lane.
Integers are stored in the signed numpy type of their width (`i1` as bool, `index` as int64); operations
that read them as unsigned reinterpret the bits. Arithmetic wraps at the width, as on the GPU; floats stay
in their own precision (f32 in float32). Generated programs call these functions as `_v.<name>`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

UNSIGNED = {np.dtype(np.int8): np.uint8, np.dtype(np.int16): np.uint16, np.dtype(np.int32): np.uint32,
            np.dtype(np.int64): np.uint64, np.dtype(np.bool_): np.bool_}
BITS = {np.dtype(np.int8): 8, np.dtype(np.int16): 16, np.dtype(np.int32): 32, np.dtype(np.int64): 64,
        np.dtype(np.bool_): 1}


def u(x: Any) -> Any:
    """The same bits read as unsigned."""
    return x.view(UNSIGNED[x.dtype])


# Integer arithmetic whose numpy spelling differs from the GPU's ---------------------------------------
def divui(a: Any, b: Any) -> Any:
    return (u(a) // u(b)).view(a.dtype)


def remui(a: Any, b: Any) -> Any:
    return (u(a) % u(b)).view(a.dtype)


def remsi(a: Any, b: Any) -> Any:
    # C's remainder (sign of the dividend), not Python's.
    return np.fmod(a, b)


def divsi(a: Any, b: Any) -> Any:
    # Truncating division: exact because a - fmod(a, b) is a multiple of b.
    safe = np.where(b == 0, 1, b).astype(a.dtype)
    return ((a - np.fmod(a, safe)) // safe * (b != 0)).astype(a.dtype)[()]


def ceildivsi(a: Any, b: Any) -> Any:
    q = divsi(a, b)
    return q + ((np.fmod(a, b) != 0) & ((a < 0) == (b < 0))).astype(a.dtype)


def floordivsi(a: Any, b: Any) -> Any:
    return (a // np.where(b == 0, 1, b).astype(a.dtype))[()]


def ceildivui(a: Any, b: Any) -> Any:
    q = divui(a, b)
    return q + (remui(a, b) != 0).astype(a.dtype)


def shli(a: Any, b: Any) -> Any:
    # PTX clamps the shift amount: shifting by the width or more gives 0 (numpy would wrap the amount).
    bits = BITS[a.dtype]
    amount = u(b)
    return np.where(amount >= bits, 0, u(a) << (amount & (bits - 1))).astype(UNSIGNED[a.dtype]).view(a.dtype)[()]


def shrui(a: Any, b: Any) -> Any:
    bits = BITS[a.dtype]
    amount = u(b)
    return np.where(amount >= bits, 0, u(a) >> (amount & (bits - 1))).astype(UNSIGNED[a.dtype]).view(a.dtype)[()]


def shrsi(a: Any, b: Any) -> Any:
    bits = BITS[a.dtype]
    return (a >> np.minimum(u(b), bits - 1).astype(a.dtype))[()]


def minui(a: Any, b: Any) -> Any:
    return np.minimum(u(a), u(b)).view(a.dtype)


def maxui(a: Any, b: Any) -> Any:
    return np.maximum(u(a), u(b)).view(a.dtype)


_CMPI = {0: np.equal, 1: np.not_equal, 2: np.less, 3: np.less_equal, 4: np.greater, 5: np.greater_equal}


def cmpi(predicate: int, a: Any, b: Any) -> Any:
    """arith.cmpi by its predicate number (eq ne slt sle sgt sge ult ule ugt uge)."""
    if predicate >= 6:
        return _CMPI[predicate - 4](u(a), u(b))
    return _CMPI[predicate](a, b)


_CMPF_ORDERED = {1: np.equal, 2: np.greater, 3: np.greater_equal, 4: np.less, 5: np.less_equal,
                 6: np.not_equal}


def cmpf(predicate: int, a: Any, b: Any) -> Any:
    """arith.cmpf by its predicate number (false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true)."""
    unordered = np.isnan(a) | np.isnan(b)
    if predicate == 0:
        return np.zeros_like(unordered)
    if predicate == 15:
        return np.ones_like(unordered)
    if predicate == 7:
        return ~unordered
    if predicate == 14:
        return unordered
    if predicate <= 6:
        return _CMPF_ORDERED[predicate](a, b) & ~unordered
    return _CMPF_ORDERED[predicate - 7](a, b) | unordered


# Conversions -------------------------------------------------------------------------------------------
def trunci(x: Any, dtype: Any) -> Any:
    if np.dtype(dtype) == np.bool_:
        return (x & 1).astype(np.bool_)
    return x.astype(dtype)


def extsi(x: Any, dtype: Any) -> Any:
    if x.dtype == np.bool_:
        return -(x.astype(dtype))  # i1 true sign-extends to all ones
    return x.astype(dtype)


def extui(x: Any, dtype: Any) -> Any:
    return u(x).astype(UNSIGNED[np.dtype(dtype)]).view(dtype)


def uitofp(x: Any, dtype: Any) -> Any:
    return u(x).astype(dtype)


def fptoi(x: Any, dtype: Any, signed: bool) -> Any:
    """cvt.rzi with saturation and NaN -> 0, as the GPU converts (LLVM leaves out-of-range as poison)."""
    target = np.dtype(dtype) if signed else np.dtype(UNSIGNED[np.dtype(dtype)])
    info = np.iinfo(target)
    clipped = np.clip(np.nan_to_num(np.trunc(x), nan=0.0), float(info.min), float(info.max))
    # float(info.max) of a 64-bit type rounds up past the range, so the top is saturated explicitly.
    top = clipped >= float(info.max)
    out = np.where(top, info.max, np.where(top, 0, clipped).astype(target))
    return np.asarray(out).astype(target).view(dtype)[()]


def bitcast(x: Any, dtype: Any) -> Any:
    return x.view(dtype)


# Floats ------------------------------------------------------------------------------------------------
def _two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    """s + e == a + b exactly, s = fl(a + b) (Knuth)."""
    total = a + b
    b_virtual = total - a
    return total, (a - (total - b_virtual)) + (b - b_virtual)


def _two_product(a: Any, b: Any) -> tuple[Any, Any]:
    """p + e == a * b exactly, p = fl(a * b) (Dekker's split; finite values away from overflow)."""
    product = a * b
    split = np.float64(134217729.0)  # 2**27 + 1
    a_big = a * split
    a_hi = a_big - (a_big - a)
    a_lo = a - a_hi
    b_big = b * split
    b_hi = b_big - (b_big - b)
    b_lo = b - b_hi
    return product, ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _round_to_odd_sum(a: Any, b: Any) -> Any:
    """a + b in float64 rounded to odd: inexact results get an odd last bit (toward the exact value)."""
    total, error = _two_sum(a, b)
    even = (np.asarray(total).view(np.int64) & 1) == 0
    toward = np.where(error > 0, np.inf, -np.inf)
    return np.where((error != 0) & even, np.nextafter(total, toward), total)


def fma(a: Any, b: Any, c: Any) -> Any:
    """Fused multiply-add with one rounding, as the GPU's fma.rn.

    f32: the product is exact in float64, so float64(a*b + c) is one rounding; rounding that to float32 again
    differs from a single rounding only where the float64 sum sits exactly on a float32 midpoint (or in
    float32's subnormal range), and those lanes are redone with the sum rounded to odd, which makes the
    second rounding correct. f64: Boldo and Melquiond's emulation (exact product and sums, then one rounding
    through round-to-odd); non-finite cases, where those transformations do not apply, take a * b + c."""
    dtype = np.result_type(a, b, c)
    a64, b64, c64 = (np.asarray(x, np.float64) for x in (a, b, c))
    if dtype == np.float32:
        total = a64 * b64 + c64
        midpoint = (total.view(np.int64) & 0x1FFFFFFF) == 0x10000000
        doubtful = np.isfinite(total) & (midpoint | (np.abs(total) < np.finfo(np.float32).tiny))
        if doubtful.any():
            total = np.where(doubtful, _round_to_odd_sum(a64 * b64, c64), total)
        return total.astype(np.float32)[()]
    plain = a64 * b64 + c64
    high, low = _two_product(a64, b64)
    sum_high, sum_low = _two_sum(c64, low)
    top, rest = _two_sum(high, sum_high)
    fused = top + _round_to_odd_sum(rest, sum_low)
    return np.where(np.isfinite(fused) & np.isfinite(plain), fused, plain).astype(dtype)[()]


def round_away(x: Any) -> Any:
    """Rust's `round`: halfway cases away from zero (exact: the fraction of |x| is computed exactly)."""
    magnitude = np.abs(x)
    whole = np.floor(magnitude)
    return np.copysign(whole + (magnitude - whole >= x.dtype.type(0.5)), x).astype(x.dtype)[()]


def minnum(a: Any, b: Any) -> Any:
    return np.fmin(a, b)


def maxnum(a: Any, b: Any) -> Any:
    return np.fmax(a, b)


def fpowi(x: Any, n: Any) -> Any:
    return np.power(x, n.astype(x.dtype)).astype(x.dtype)


def ctpop(x: Any) -> Any:
    return np.bitwise_count(u(x)).astype(x.dtype)


def ctlz(x: Any) -> Any:
    bits = BITS[x.dtype]
    v = u(x).astype(np.uint64)
    width = np.zeros(np.shape(v), np.int64)
    for shift in (32, 16, 8, 4, 2, 1):
        big = v >= (np.uint64(1) << np.uint64(shift))
        width = width + np.where(big, shift, 0)
        v = np.where(big, v >> np.uint64(shift), v)
    width = width + (v > 0)
    return (bits - width).astype(x.dtype)[()]


def cttz(x: Any) -> Any:
    bits = BITS[x.dtype]
    v = u(x)
    lowest = (v & (~v + v.dtype.type(1))).astype(np.float64)  # the lowest set bit, a power of two
    return np.where(v == 0, bits, np.log2(np.maximum(lowest, 1.0))).astype(x.dtype)[()]


# Lane masks and control flow ---------------------------------------------------------------------------
def select(cond: Any, a: Any, b: Any) -> Any:
    """arith.select; a uniform condition picks without touching the values (they may be pointers)."""
    if not isinstance(cond, np.ndarray):
        return a if cond else b
    if isinstance(a, np.ndarray | np.generic) and isinstance(b, np.ndarray | np.generic):
        if max(np.ndim(a), np.ndim(b)) == 2:
            return np.where(cond[:, None], a, b)  # vector values: one row per lane
        return np.where(cond, a, b)
    return a.select(cond, a, b) if hasattr(a, "select") else _select_objects(cond, a, b)


def _select_objects(cond: Any, a: Any, b: Any) -> Any:
    if a is b:
        return a
    from oxide.runtime.emulator.errors import UnsupportedOperation

    raise UnsupportedOperation(f"a per-thread choice between two different {type(a).__name__} values")


def merge(active: Any, full: Any, new: Any, old: Any) -> Any:
    """`new` on the lanes of `active`, `old` elsewhere; no work when every lane of `full` is active."""
    if active is full or old is None:
        return new
    return select(active, new, old)


def narrow(mask: Any, cond: Any) -> Any:
    """The lanes of `mask` where `cond` holds (`mask` itself when a uniform cond is true, None if none)."""
    if not isinstance(cond, np.ndarray):
        return mask if cond else None
    out = mask & cond
    return out if out.any() else None


def narrow_not(mask: Any, cond: Any) -> Any:
    """The lanes of `mask` where `cond` does not hold."""
    if not isinstance(cond, np.ndarray):
        return None if cond else mask
    out = mask & ~cond
    return out if out.any() else None


def erf(x: Any) -> Any:
    """The error function (numpy has none): math.erf per element, in the value's precision."""
    import math

    return np.vectorize(math.erf, otypes=[np.float64])(x).astype(np.result_type(x))[()]
