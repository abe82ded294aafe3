"""Elementwise arith/math on tiles and scalars on the emulator: wrapping integers, signless ints read by the
op (divsi vs divui, shifts, compares), f16 and bf16 rounding, splat and dense constants, conversions,
compare and select -- each against a numpy reference."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator.tile import bf16
from tests.unit.runtime.emulator.tile.helpers import out, part, run, tensor, view

N = 16


def _binary(op: str, elem: str, a: np.ndarray, b: np.ndarray, result: str | None = None,
            out_dtype: object = None) -> np.ndarray:
    """Run `%r = <op> %a, %b` on two N-element tiles of `elem`; the stored result (element type `result`)."""
    result = result or elem
    t, r = tensor(elem, N), tensor(result, N)
    body = f"""
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%x) : ({view(elem, -1)}) -> {part(elem, N)}
      %pb = "tile.make_partition"(%y) : ({view(elem, -1)}) -> {part(elem, N)}
      %a = "tile.load"(%pa, %c0) : ({part(elem, N)}, i32) -> {t}
      %b = "tile.load"(%pb, %c0) : ({part(elem, N)}, i32) -> {t}
      %r = {op}
      "tile.store_own"(%z, %r) : ({out(result, N)}, {r}) -> ()"""
    z = np.zeros(N, out_dtype or a.dtype)
    run(f"%z: {out(result, N)}, %x: {view(elem, -1)}, %y: {view(elem, -1)}", body, (1,), [z, a, b])
    return z


def test_integer_arithmetic_wraps_at_its_width():
    a = np.array([2**31 - 1, -2**31, 7, -7] * 4, np.int32)
    b = np.array([1, -1, 3, 3] * 4, np.int32)
    t = tensor("i32", N)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(_binary(f"arith.addi %a, %b : {t}", "i32", a, b), a + b)
        np.testing.assert_array_equal(_binary(f"arith.muli %a, %b : {t}", "i32", a, b), a * b)
        np.testing.assert_array_equal(_binary(f"arith.subi %a, %b : {t}", "i32", a, b), a - b)


def test_signed_and_unsigned_division_read_the_same_bits_differently():
    a = np.array([-7, 7, -8, 9] * 4, np.int32)
    b = np.array([2, -2, 3, 4] * 4, np.int32)
    t = tensor("i32", N)
    np.testing.assert_array_equal(_binary(f"arith.divsi %a, %b : {t}", "i32", a, b), np.trunc(a / b).astype(np.int32))
    np.testing.assert_array_equal(_binary(f"arith.remsi %a, %b : {t}", "i32", a, b), np.fmod(a, b))
    ua, ub = a.view(np.uint32), b.view(np.uint32)
    np.testing.assert_array_equal(_binary(f"arith.divui %a, %b : {t}", "i32", a, b).view(np.uint32), ua // ub)
    np.testing.assert_array_equal(_binary(f"arith.shrui %a, %b : {t}", "i32", a, b).view(np.uint32), ua >> ub)
    np.testing.assert_array_equal(_binary(f"arith.shrsi %a, %b : {t}", "i32", a, b), a >> b)
    np.testing.assert_array_equal(_binary(f"arith.maxui %a, %b : {t}", "i32", a, b).view(np.uint32),
                                  np.maximum(ua, ub))


def test_compares_are_ordered_or_unordered_signed_or_unsigned():
    a = np.linspace(-2, 2, N).astype(np.float32)
    b = np.zeros(N, np.float32)
    a[3] = np.nan
    t = tensor("f32", N)
    z = _binary(f"arith.maximumf %a, %b : {t}", "f32", a, b)
    np.testing.assert_array_equal(z, np.maximum(a, b))
    less = _binary(f"arith.cmpf olt, %a, %b : {t}", "f32", a, b, result="i1", out_dtype=np.bool_)
    np.testing.assert_array_equal(less, a < b)
    unordered = _binary(f"arith.cmpf ult, %a, %b : {t}", "f32", a, b, result="i1", out_dtype=np.bool_)
    np.testing.assert_array_equal(unordered, ~(a >= b))
    ints = np.arange(N, dtype=np.int32) - 8
    unsigned_less = _binary(f"arith.cmpi ult, %a, %b : {tensor('i32', N)}", "i32", ints, np.full(N, 3, np.int32),
                            result="i1", out_dtype=np.bool_)
    np.testing.assert_array_equal(unsigned_less, ints.view(np.uint32) < 3)


def test_select_with_a_tile_condition():
    body = f"""
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : ({view('f32', -1)}) -> {part('f32', N)}
      %a = "tile.load"(%p, %c0) : ({part('f32', N)}, i32) -> {tensor('f32', N)}
      %zero = arith.constant dense<0.0> : {tensor('f32', N)}
      %neg = arith.cmpf olt, %a, %zero : {tensor('f32', N)}
      %n = arith.negf %a : {tensor('f32', N)}
      %r = arith.select %neg, %n, %a : {tensor('i1', N)}, {tensor('f32', N)}
      "tile.store_own"(%z, %r) : ({out('f32', N)}, {tensor('f32', N)}) -> ()"""
    x = np.linspace(-3, 3, N).astype(np.float32)
    z = np.zeros(N, np.float32)
    run(f"%z: {out('f32', N)}, %x: {view('f32', -1)}", body, (1,), [z, x])
    np.testing.assert_array_equal(z, np.abs(x))


def test_bf16_results_are_rounded_to_nearest_even_after_every_op():
    a = (1.0 + np.arange(N) / 128.0).astype(np.float32)  # exact in bf16 (7 fraction bits)
    b = np.full(N, 1.0 / 256.0, np.float32)  # half an ulp of [1, 2): the sums are ties
    bits = lambda v: (v.view(np.uint32) >> 16).astype(np.uint16)
    z = _binary(f"arith.addf %a, %b : {tensor('bf16', N)}", "bf16", bits(a), bits(b))
    got = (z.astype(np.uint32) << 16).view(np.float32)
    expect = np.where(np.arange(N) % 2 == 0, a, a + np.float32(1 / 128))  # ties go to the even neighbour
    np.testing.assert_array_equal(got, expect)
    np.testing.assert_array_equal(bf16(np.float32(1.0 + 2**-9)), np.float32(1.0))
    np.testing.assert_array_equal(bf16(np.float32(1.0 + 3 * 2**-9)), np.float32(1.0 + 2**-7))


def test_f16_arithmetic_stays_in_f16():
    a = np.full(N, 2048.0, np.float16)
    b = np.full(N, 1.0, np.float16)
    z = _binary(f"arith.addf %a, %b : {tensor('f16', N)}", "f16", a, b)
    np.testing.assert_array_equal(z, a + b)  # 2049 is not an f16: rounds to 2048
    assert z[0] == 2048.0


def test_math_on_tiles():
    a = np.linspace(0.1, 3.0, N).astype(np.float32)
    b = np.linspace(-1.0, 1.0, N).astype(np.float32)
    t = tensor("f32", N)
    np.testing.assert_allclose(_binary(f"math.exp %a : {t}", "f32", a, b), np.exp(a), rtol=1e-6)
    np.testing.assert_allclose(_binary(f"math.rsqrt %a : {t}", "f32", a, b), 1 / np.sqrt(a), rtol=1e-6)
    np.testing.assert_allclose(_binary(f"math.powf %a, %b : {t}", "f32", a, b), a ** b, rtol=1e-6)
    np.testing.assert_allclose(_binary(f"math.atan2 %a, %b : {t}", "f32", a, b), np.arctan2(a, b), rtol=1e-6)
    np.testing.assert_allclose(_binary(f"math.fma %a, %b, %a : {t}", "f32", a, b), a * b + a, rtol=1e-6)
    ints = np.array([-3, 4, -2**31, 0] * 4, np.int32)
    np.testing.assert_array_equal(_binary(f"math.absi %a : {tensor('i32', N)}", "i32", ints, ints), np.abs(ints))


def test_conversions():
    f = np.array([-2.7, 2.7, 3e9, np.nan] * 4, np.float32)
    t32, ti = tensor("f32", N), tensor("i32", N)
    z = _binary(f"arith.fptosi %a : {t32} to {ti}", "f32", f, f, result="i32", out_dtype=np.int32)
    np.testing.assert_array_equal(z, np.array([-2, 2, 2**31 - 1, 0] * 4, np.int32))  # saturating, NaN -> 0
    ints = np.array([-1, 5, 7, 2**24 + 1] * 4, np.int32)
    z = _binary(f"arith.uitofp %a : {ti} to {t32}", "i32", ints, ints, result="f32", out_dtype=np.float32)
    np.testing.assert_array_equal(z, ints.view(np.uint32).astype(np.float32))
    z = _binary(f"arith.truncf %a : {t32} to {tensor('bf16', N)}", "f32", f, f, result="bf16", out_dtype=np.uint16)
    np.testing.assert_array_equal((z.astype(np.uint32) << 16).view(np.float32)[:3], bf16(f)[:3])
    small = np.array([1, -1, 100, -128] * 4, np.int8)
    z = _binary(f"arith.extui %a : {tensor('i8', N)} to {ti}", "i8", small, small, result="i32", out_dtype=np.int32)
    np.testing.assert_array_equal(z, small.view(np.uint8).astype(np.int32))
    z = _binary(f"arith.extsi %a : {tensor('i8', N)} to {ti}", "i8", small, small, result="i32", out_dtype=np.int32)
    np.testing.assert_array_equal(z, small.astype(np.int32))
    z = _binary(f"arith.bitcast %a : {t32} to {ti}", "f32", f, f, result="i32", out_dtype=np.int32)
    np.testing.assert_array_equal(z, f.view(np.int32))


def test_dense_and_scalar_constants():
    values = ", ".join(str(v) for v in range(N))
    body = f"""
      %d = arith.constant dense<[{values}]> : {tensor('i32', N)}
      %s = arith.constant -3 : i32
      %t = "tile.splat"(%s) : (i32) -> {tensor('i32', N)}
      %r = arith.muli %d, %t : {tensor('i32', N)}
      "tile.store_own"(%z, %r) : ({out('i32', N)}, {tensor('i32', N)}) -> ()"""
    z = np.zeros(N, np.int32)
    run(f"%z: {out('i32', N)}", body, (1,), [z])
    np.testing.assert_array_equal(z, np.arange(N) * -3)


@pytest.mark.parametrize("elem, dtype", [("f32", np.float32), ("f64", np.float64), ("i64", np.int64)])
def test_scalar_parameters_reach_the_tile(elem, dtype):
    body = f"""
      %t = "tile.splat"(%s) : ({elem}) -> {tensor(elem, N)}
      "tile.store_own"(%z, %t) : ({out(elem, N)}, {tensor(elem, N)}) -> ()"""
    z = np.zeros(N, dtype)
    run(f"%z: {out(elem, N)}, %s: {elem}", body, (1,), [z, 5])
    np.testing.assert_array_equal(z, np.full(N, 5, dtype))
