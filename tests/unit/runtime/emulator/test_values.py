"""The emulator's integer and conversion helpers against a big-integer reference of the GPU's semantics, for
every width, on lane vectors and on uniform scalars."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator import values as v

EDGES = [0, 1, -1, 2, -2, 3, 7, -7, 31, 32, 33, 63, 64, 100]


def _operands(dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(dtype.itemsize)
    edges = [e for e in EDGES if info.min <= e <= info.max] + [info.min, info.max, info.min + 1]
    a = np.array(edges + list(rng.integers(info.min, info.max, 40, endpoint=True)), dtype)
    b = np.array(list(rng.permutation(edges)) + list(rng.integers(info.min, info.max, 40, endpoint=True)), dtype)
    return a, b


def _wrap(x: int, bits: int) -> int:
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def _trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


REFERENCE = {
    "divsi": lambda x, y, bits: _wrap(_trunc_div(x, y), bits),
    "remsi": lambda x, y, bits: _wrap(x - _trunc_div(x, y) * y, bits),
    "divui": lambda x, y, bits: _wrap((x % 2**bits) // (y % 2**bits), bits),
    "remui": lambda x, y, bits: _wrap((x % 2**bits) % (y % 2**bits), bits),
    "shli": lambda x, y, bits: _wrap(x << (y % 2**bits), bits) if y % 2**bits < bits else 0,
    "shrui": lambda x, y, bits: _wrap((x % 2**bits) >> (y % 2**bits), bits) if y % 2**bits < bits else 0,
    "shrsi": lambda x, y, bits: x >> min(y % 2**bits, bits - 1),
    "minui": lambda x, y, bits: _wrap(min(x % 2**bits, y % 2**bits), bits),
    "maxui": lambda x, y, bits: _wrap(max(x % 2**bits, y % 2**bits), bits),
}


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
@pytest.mark.parametrize("op", sorted(REFERENCE))
def test_integer_ops(op, dtype):
    a, b = _operands(np.dtype(dtype))
    if op in ("divsi", "remsi", "divui", "remui"):
        keep = (b != 0) & ~((a == np.iinfo(dtype).min) & (b == -1))  # the frontend traps on both
        a, b = a[keep], b[keep]
    bits = np.dtype(dtype).itemsize * 8
    expected = [REFERENCE[op](int(x), int(y), bits) for x, y in zip(a, b)]
    got = getattr(v, op)(a, b)
    assert got.dtype == np.dtype(dtype)
    assert [int(g) for g in got] == expected
    scalar = getattr(v, op)(a[5], b[5])
    assert isinstance(scalar, np.generic) and int(scalar) == expected[5]


@pytest.mark.parametrize("predicate, fn", [(6, lambda x, y: x < y), (7, lambda x, y: x <= y),
                                           (8, lambda x, y: x > y), (9, lambda x, y: x >= y)])
def test_unsigned_compares(predicate, fn):
    a, b = _operands(np.dtype(np.int32))
    got = v.cmpi(predicate, a, b)
    assert list(got) == [fn(int(x) % 2**32, int(y) % 2**32) for x, y in zip(a, b)]


def test_conversions():
    x = np.array([-1, -128, 127, 5], np.int8)
    assert list(v.extui(x, np.int32)) == [255, 128, 127, 5]
    assert list(v.extsi(x, np.int64)) == [-1, -128, 127, 5]
    assert list(v.extsi(np.array([True, False]), np.int32)) == [-1, 0]
    assert list(v.trunci(np.array([257, 3], np.int32), np.bool_)) == [True, True]
    assert list(v.uitofp(np.array([-1], np.int32), np.float64)) == [2.0**32 - 1]
    floats = np.array([np.nan, 1e10, -1e10, -3.7, 3.7, 255.9], np.float32)
    assert list(v.fptoi(floats, np.int8, True)) == [0, 127, -128, -3, 3, 127]
    assert list(v.fptoi(floats, np.int8, False).view(np.uint8)) == [0, 255, 0, 0, 3, 255]
    assert list(v.fptoi(np.array([1e30, 2.0**63], np.float64), np.int64, True)) == [2**63 - 1, 2**63 - 1]


def test_bit_counts_and_rounding():
    x = np.array([0, 1, 0x80000000, 0x00F0, -1], np.int64).astype(np.int32)
    assert list(v.ctpop(x)) == [0, 1, 1, 4, 32]
    assert list(v.ctlz(x)) == [32, 31, 0, 24, 0]
    assert list(v.cttz(x)) == [32, 0, 31, 4, 0]
    r = v.round_away(np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997], np.float32))
    assert r.dtype == np.float32 and list(r) == [1, 2, 3, -1, -3, 0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fma_rounds_once(dtype):
    from fractions import Fraction

    rng = np.random.default_rng(9)
    a, b = (rng.standard_normal(300) * 10.0 ** rng.integers(-5, 5, 300)).astype(dtype), rng.standard_normal(300)
    b = b.astype(dtype)
    c = (-(a.astype(np.float64) * b) * (1 + rng.standard_normal(300) * 1e-7)).astype(dtype)  # cancellation
    got = v.fma(a, b, c)
    assert got.dtype == dtype
    exact = [Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)) for x, y, z in zip(a, b, c)]
    # Correctly rounded: no neighbour of the result is nearer to the exact value (ties may go either way here).
    for g, e in zip(got, exact):
        distances = [abs(Fraction(float(q)) - e)
                     for q in (np.nextafter(g, dtype(-np.inf)), g, np.nextafter(g, dtype(np.inf)))]
        assert distances[1] == min(distances)
