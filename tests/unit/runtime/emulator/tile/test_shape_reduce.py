"""Shape ops, reductions, scans, mma and atomics on the emulator, against numpy: iota, broadcast, reshape,
permute, cat, extract (and its trap), to_scalar; every reduce/scan kind along each dimension (unsigned and
reverse forms); mma for each input type (bf16/f16, f32 at f32 accuracy, tf32 rounding under `tile.tf32`); masked atomics in a defined order."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator import KernelTrap, OutOfBounds, launch_tile
from oxide.runtime.emulator.tile import bf16, tf32
from tests.unit.runtime.emulator.tile.helpers import (
    module,
    out,
    part,
    program,
    run,
    tensor,
    view,
)


def _map(elem: str, shape: tuple[int, int], ops: str, result: str, rshape: tuple[int, ...], x: np.ndarray,
         out_dtype: object = None) -> np.ndarray:
    """Load x (one tile of `shape`) as %a, run `ops` (ending in %r of `result` x `rshape`), store %r."""
    rank = len(shape)
    zeros = ", ".join(["%c0"] * rank)
    body = f"""
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : ({view(elem, *[-1] * rank)}) -> {part(elem, *shape)}
      %a = "tile.load"(%p, {zeros}) : ({part(elem, *shape)}, {', '.join(['i32'] * rank)}) -> {tensor(elem, *shape)}
{ops}
      "tile.store_own"(%z, %r) : ({out(result, *rshape)}, {tensor(result, *rshape)}) -> ()"""
    z = np.zeros(rshape, out_dtype or x.dtype)
    run(f"%z: {out(result, *rshape)}, %x: {view(elem, *[-1] * rank)}", body, (1,), [z, x])
    return z


X = np.arange(32, dtype=np.float32).reshape(4, 8) - 10.0


def test_iota_broadcast_and_reshape():
    ops = f"""
      %i = "tile.iota"() : () -> tensor<8xi32>
      %f = arith.sitofp %i : tensor<8xi32> to tensor<8xf32>
      %b = "tile.broadcast"(%f) : (tensor<8xf32>) -> {tensor('f32', 4, 8)}
      %s = arith.addf %a, %b : {tensor('f32', 4, 8)}
      %r = "tile.reshape"(%s) : ({tensor('f32', 4, 8)}) -> {tensor('f32', 8, 4)}"""
    np.testing.assert_array_equal(_map("f32", (4, 8), ops, "f32", (8, 4), X), (X + np.arange(8)).reshape(8, 4))


def test_permute_and_cat():
    ops = f"""
      %t = "tile.permute"(%a) {{perm = array<i64: 1, 0>}} : ({tensor('f32', 4, 8)}) -> {tensor('f32', 8, 4)}
      %r = "tile.cat"(%t, %t) {{dim = 1 : i64}} : ({tensor('f32', 8, 4)}, {tensor('f32', 8, 4)}) -> {tensor('f32', 8, 8)}"""
    np.testing.assert_array_equal(_map("f32", (4, 8), ops, "f32", (8, 8), X), np.concatenate([X.T, X.T], 1))


EXTRACT = f"""
      %i = arith.constant 1 : i32
      %j = arith.constant JJ : i32
      %e = "tile.extract"(%a, %i, %j) : ({tensor('f32', 4, 8)}, i32, i32) -> {tensor('f32', 2, 4)}
      %r1 = "tile.extract"(%e, %c0, %c0) : ({tensor('f32', 2, 4)}, i32, i32) -> {tensor('f32', 1, 1)}
      %s = "tile.to_scalar"(%r1) : ({tensor('f32', 1, 1)}) -> f32
      %t = "tile.splat"(%s) : (f32) -> {tensor('f32', 2, 4)}
      %r = arith.subf %e, %t : {tensor('f32', 2, 4)}"""


def test_extract_and_to_scalar():
    z = _map("f32", (4, 8), EXTRACT.replace("JJ", "1"), "f32", (2, 4), X)
    np.testing.assert_array_equal(z, X[2:4, 4:8] - X[2, 4])


def test_extract_past_the_source_traps():
    with pytest.raises(KernelTrap, match=r"extract at sub-tile index \(1, 2\) is outside the \(2, 2\) sub-tiles"):
        _map("f32", (4, 8), EXTRACT.replace("JJ", "2"), "f32", (2, 4), X)


def _reduce(kind: str, dim: int, x: np.ndarray, elem: str, unsigned: bool = False) -> np.ndarray:
    shape = x.shape
    rshape = shape[:dim] + shape[dim + 1:]
    ops = (f'      %r = "tile.reduce"(%a) {{dim = {dim} : i64, kind = "{kind}", unsigned = {int(unsigned)} : i64}} : '
           f"({tensor(elem, *shape)}) -> {tensor(elem, *rshape)}")
    return _map(elem, shape, ops, elem, rshape, x)


@pytest.mark.parametrize("kind, fn", [("sum", np.sum), ("prod", np.prod), ("max", np.max), ("min", np.min)])
@pytest.mark.parametrize("dim", [0, 1])
def test_reduce_every_kind_along_each_dimension(kind, fn, dim):
    x = (X / 8).astype(np.float32)
    np.testing.assert_allclose(_reduce(kind, dim, x, "f32"), fn(x, axis=dim), rtol=1e-6)
    ints = (np.arange(32, dtype=np.int32) * 123457 - 99).reshape(4, 8)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(_reduce(kind, dim, ints, "i32"), fn(ints, axis=dim, dtype=np.int32)
                                      if kind in ("sum", "prod") else fn(ints, axis=dim))


def test_unsigned_max_reads_the_bits_as_unsigned():
    x = np.array([[1, -1, 5, 7, 0, 3, 2, 9]] * 4, np.int32)
    np.testing.assert_array_equal(_reduce("max", 1, x, "i32", unsigned=True), np.full(4, -1, np.int32))
    np.testing.assert_array_equal(_reduce("max", 1, x, "i32"), np.full(4, 9, np.int32))


@pytest.mark.parametrize("kind, fn", [("sum", np.cumsum), ("prod", np.cumprod), ("max", np.maximum.accumulate),
                                      ("min", np.minimum.accumulate)])
@pytest.mark.parametrize("reverse", [False, True])
def test_scan_inclusive_forward_and_reverse(kind, fn, reverse):
    x = (np.arange(32, dtype=np.int32).reshape(4, 8) * 7919 % 13) - 6
    ops = (f'      %r = "tile.scan"(%a) {{dim = 1 : i64, kind = "{kind}", reverse = {int(reverse)} : i64, '
           f"unsigned = 0 : i64}} : ({tensor('i32', 4, 8)}) -> {tensor('i32', 4, 8)}")
    expect = np.flip(fn(np.flip(x, 1), axis=1), 1) if reverse else fn(x, axis=1)
    np.testing.assert_array_equal(_map("i32", (4, 8), ops, "i32", (4, 8), x), expect.astype(np.int32))


def _mma(elem: str, acc: str, a: np.ndarray, b: np.ndarray, c: np.ndarray, storage: object,
         tf32_products: bool = False) -> np.ndarray:
    ta, tb, tc = tensor(elem, 16, 16), tensor(elem, 16, 8), tensor(acc, 16, 8)
    attr = " {tile.tf32}" if tf32_products else ""
    body = f"""
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%x) : ({view(elem, 16, 16)}) -> {part(elem, 16, 16)}
      %pb = "tile.make_partition"(%y) : ({view(elem, 16, 8)}) -> {part(elem, 16, 8)}
      %a = "tile.load"(%pa, %c0, %c0) : ({part(elem, 16, 16)}, i32, i32) -> {ta}
      %b = "tile.load"(%pb, %c0, %c0) : ({part(elem, 16, 8)}, i32, i32) -> {tb}
      %c = "tile.load_own"(%z) : ({out(acc, 16, 8)}) -> {tc}
      %r = "tile.mma"(%a, %b, %c){attr} : ({ta}, {tb}, {tc}) -> {tc}
      "tile.store_own"(%z, %r) : ({out(acc, 16, 8)}, {tc}) -> ()"""
    z = c.astype(storage)
    run(f"%z: {out(acc, 16, 8)}, %x: {view(elem, 16, 16)}, %y: {view(elem, 16, 8)}", body, (1, 1), [z, a, b])
    return z


RNG = np.random.default_rng(7)
A = RNG.standard_normal((16, 16)).astype(np.float32)
B = RNG.standard_normal((16, 8)).astype(np.float32)
C = RNG.standard_normal((16, 8)).astype(np.float32)


def test_mma_bf16_inputs_accumulate_in_f32():
    bits = lambda v: (bf16(v).view(np.uint32) >> 16).astype(np.uint16)
    z = _mma("bf16", "f32", bits(A), bits(B), C, np.float32)
    expect = bf16(A).astype(np.float64) @ bf16(B).astype(np.float64) + C
    np.testing.assert_allclose(z, expect.astype(np.float32), rtol=1e-6, atol=1e-6)


def test_mma_f16_inputs_accumulate_in_f32_or_f16():
    a, b = A.astype(np.float16), B.astype(np.float16)
    expect = a.astype(np.float64) @ b.astype(np.float64) + C
    np.testing.assert_allclose(_mma("f16", "f32", a, b, C, np.float32), expect.astype(np.float32), rtol=1e-6)
    c16 = C.astype(np.float16)
    expect16 = (a.astype(np.float64) @ b.astype(np.float64) + c16).astype(np.float16)
    np.testing.assert_array_equal(_mma("f16", "f16", a, b, c16, np.float16), expect16)


def test_mma_f32_inputs_multiply_at_f32_accuracy():
    z = _mma("f32", "f32", A, B, C, np.float32)
    np.testing.assert_allclose(z, (A.astype(np.float64) @ B + C).astype(np.float32), rtol=1e-6, atol=1e-6)
    rounded = tf32(A).astype(np.float64) @ tf32(B).astype(np.float64) + C
    assert not np.allclose(z, rounded.astype(np.float32), rtol=1e-6, atol=1e-6)


def test_mma_with_the_tf32_attribute_multiplies_as_tf32():
    z = _mma("f32", "f32", A, B, C, np.float32, tf32_products=True)
    expect = tf32(A).astype(np.float64) @ tf32(B).astype(np.float64) + C
    np.testing.assert_allclose(z, expect.astype(np.float32), rtol=1e-6, atol=1e-6)
    assert not np.allclose(z, (A.astype(np.float64) @ B + C).astype(np.float32), rtol=1e-7, atol=0)
    np.testing.assert_array_equal(tf32(np.float32(1 + 2**-11)), np.float32(1 + 2**-10))  # ties away from zero


ATOMIC = f"""
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : ({view('i32', -1)}) -> {part('i32', 8)}
      %off = "tile.load"(%p, %c0) : ({part('i32', 8)}, i32) -> tensor<8xi32>
      %v = "tile.iota"() : () -> tensor<8xi32>
      %one = arith.constant dense<1> : tensor<8xi32>
      %vals = arith.addi %v, %one : tensor<8xi32>
      %lim = arith.constant dense<6> : tensor<8xi32>
      %mask = arith.cmpi slt, %v, %lim : tensor<8xi32>
      %old = "tile.atomic_rmw"(%ptr, %off, %vals, %mask) {{kind = "KIND"}} : (!tile.ptr<i32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi1>) -> tensor<8xi32> loc("k.rs":4:5)
      "tile.store_own"(%z, %old) : ({out('i32', 8)}, tensor<8xi32>) -> ()"""
ATOMIC_PARAMS = f"%z: {out('i32', 8)}, %x: {view('i32', -1)}, %ptr: !tile.ptr<i32>"


def test_atomic_add_combines_in_row_major_order_and_returns_old_values():
    buffer = np.array([100, 200, 300], np.int32)
    offsets = np.array([0, 1, 0, 2, 0, 1, 2, 2], np.int32)  # the last two are masked off
    z = np.full(16, -1, np.int32)
    run(ATOMIC_PARAMS, ATOMIC.replace("KIND", "add"), (2,), [z, offsets, buffer])
    # block 0 then block 1, each element in order: 1..6 go to offsets 0,1,0,2,0,1
    np.testing.assert_array_equal(buffer, [100 + 2 * (1 + 3 + 5), 200 + 2 * (2 + 6), 300 + 2 * 4])
    np.testing.assert_array_equal(z[:8], [100, 200, 101, 300, 104, 202, 0, 0])
    np.testing.assert_array_equal(z[8:], [109, 208, 110, 304, 113, 210, 0, 0])


def test_atomic_umax_and_xchg():
    buffer = np.array([-1, 0, 5], np.int32)
    offsets = np.array([0, 1, 2, 1, 0, 2, 0, 0], np.int32)
    z = np.zeros(8, np.int32)
    run(ATOMIC_PARAMS, ATOMIC.replace("KIND", "umax"), (1,), [z, offsets, buffer])
    np.testing.assert_array_equal(buffer, [-1, 4, 6])
    run(ATOMIC_PARAMS, ATOMIC.replace("KIND", "xchg"), (1,), [z, offsets, buffer])
    np.testing.assert_array_equal(z[:6], [-1, 4, 6, 2, 1, 3])
    np.testing.assert_array_equal(buffer, [5, 4, 6])


def test_atomic_out_of_bounds_names_block_and_location():
    offsets = np.array([0, 1, 7, 0, 0, 0, 0, 0], np.int32)
    with pytest.raises(OutOfBounds) as info:
        run(ATOMIC_PARAMS, ATOMIC.replace("KIND", "add"), (1,), [np.zeros(8, np.int32), offsets,
                                                                 np.zeros(3, np.int32)])
    assert str(info.value).startswith("kernel `k`, tile block (0, 0, 0): atomic add at offset 7 is out of bounds "
                                      "for a buffer of 3 elements")
    assert str(info.value).endswith("--> k.rs:4:5")


def test_f16_sums_accumulate_in_f32_and_round_once():
    x = np.array([[2048.0] + [1.0] * 7] * 4, np.float16)  # in f16 steps, 2048 + 1 rounds back to 2048
    np.testing.assert_array_equal(_reduce("sum", 1, x, "f16"), np.full(4, 2055.0, np.float16))
    assert np.float16(2055.0) == 2056.0


def test_bf16_scan_rounds_every_prefix():
    values = np.array([[1.0, 2**-8, 2**-8, 2**-8, 1.0, 1.0, 1.0, 1.0]] * 4, np.float32)
    bits = (values.view(np.uint32) >> 16).astype(np.uint16)
    ops = (f'      %r = "tile.scan"(%a) {{dim = 1 : i64, kind = "sum", reverse = 0 : i64, unsigned = 0 : i64}} : '
           f"({tensor('bf16', 4, 8)}) -> {tensor('bf16', 4, 8)}")
    z = _map("bf16", (4, 8), ops, "bf16", (4, 8), bits)
    got = (z.astype(np.uint32) << 16).view(np.float32)
    # accumulated in f32 and rounded per prefix: 1, 1+2^-8 -> 1 (tie, even), 1+2^-7, 1+3*2^-8 -> 1+2^-6 (tie), ...
    np.testing.assert_array_equal(got[0], bf16(np.cumsum(values[0], dtype=np.float32)))


def test_dense_float_and_bool_constants():
    floats = ", ".join(f"{v:.1f}" for v in np.arange(8) - 3.5)
    ops = f"""
      %d = arith.constant dense<[{floats}]> : tensor<8xf32>
      %m = arith.constant dense<[true, false, true, false, true, false, true, false]> : tensor<8xi1>
      %db = "tile.broadcast"(%d) : (tensor<8xf32>) -> {tensor('f32', 4, 8)}
      %mb = "tile.broadcast"(%m) : (tensor<8xi1>) -> {tensor('i1', 4, 8)}
      %r = arith.select %mb, %db, %a : {tensor('i1', 4, 8)}, {tensor('f32', 4, 8)}"""
    z = _map("f32", (4, 8), ops, "f32", (4, 8), X)
    np.testing.assert_array_equal(z, np.where(np.arange(8) % 2 == 0, np.arange(8) - 3.5, X))


def test_shuffled_blocks_reorder_only_what_atomics_can_see():
    offsets = np.zeros(8, np.int32)  # every element of every block adds into counts[0]
    orders = []
    for seed in (1, 2):
        counts, old = np.zeros(1, np.int32), np.zeros(8 * 6, np.int32)
        launch_tile(program(module(ATOMIC_PARAMS, ATOMIC.replace("KIND", "add"))), "k", (6,), [old, offsets, counts],
                    shuffle_blocks=seed)
        assert counts[0] == 6 * (1 + 2 + 3 + 4 + 5 + 6)
        orders.append(old.reshape(6, 8)[:, 0].tolist())  # what each block saw first: its place in the order
    assert orders[0] != orders[1] and sorted(orders[0]) == sorted(orders[1]) == [21 * k for k in range(6)]
