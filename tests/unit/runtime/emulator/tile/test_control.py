"""Structured control flow in tile kernels on the emulator: an scf.for K-loop carrying an accumulator tile
(a bf16 GEMM, with K and M/N not multiples of the tile), scf.if choosing between tiles, scf.while; the
SIMT launch refuses a tile kernel; an op with no tile rule is a located error."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.ir.rules import LoweringError
from oxide.ir.parse import parse_source
from oxide.runtime.emulator import (
    LaunchError,
    UnsupportedOperation,
    launch,
    launch_tile,
)
from oxide.runtime.emulator.tile import bf16
from tests.unit.runtime.emulator.tile.helpers import (
    _context,
    module,
    out,
    part,
    program,
    run,
    tensor,
    view,
)

GEMM = f"""
      %bm = "tile.block_id"() {{axis = "x"}} : () -> i32
      %bn = "tile.block_id"() {{axis = "y"}} : () -> i32
      %pa = "tile.make_partition"(%a) : ({view('bf16', -1, -1)}) -> {part('bf16', 32, 16)}
      %pb = "tile.make_partition"(%b) : ({view('bf16', -1, -1)}) -> {part('bf16', 16, 16)}
      %kt = "tile.num_tiles"(%pa) {{axis = 1 : i64}} : ({part('bf16', 32, 16)}) -> i32
      %zero = arith.constant dense<0.0> : {tensor('f32', 32, 16)}
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> ({tensor('f32', 32, 16)}) : i32 {{
        %ta = "tile.load"(%pa, %bm, %k) : ({part('bf16', 32, 16)}, i32, i32) -> {tensor('bf16', 32, 16)}
        %tb = "tile.load"(%pb, %k, %bn) : ({part('bf16', 16, 16)}, i32, i32) -> {tensor('bf16', 16, 16)}
        %n = "tile.mma"(%ta, %tb, %c) : ({tensor('bf16', 32, 16)}, {tensor('bf16', 16, 16)}, {tensor('f32', 32, 16)}) -> {tensor('f32', 32, 16)}
        scf.yield %n : {tensor('f32', 32, 16)}
      }}
      "tile.store_own"(%z, %acc) : ({out('f32', 32, 16)}, {tensor('f32', 32, 16)}) -> ()"""


def _bits(x: np.ndarray) -> np.ndarray:
    return (bf16(x).view(np.uint32) >> 16).astype(np.uint16)


def test_gemm_k_loop_carries_the_accumulator_tile():
    rng = np.random.default_rng(3)
    m, n, k = 70, 40, 50
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    z = np.zeros((m, n), np.float32)
    params = f"%z: {out('f32', 32, 16)}, %a: {view('bf16', -1, -1)}, %b: {view('bf16', -1, -1)}"
    run(params, GEMM, (3, 3), [z, _bits(a), _bits(b)])
    expect = bf16(a).astype(np.float64) @ bf16(b).astype(np.float64)
    np.testing.assert_allclose(z, expect, rtol=1e-5, atol=1e-5)


BRANCH = f"""
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : ({view('f32', -1)}) -> {part('f32', 8)}
      %t = "tile.load"(%p, %c0) : ({part('f32', 8)}, i32) -> {tensor('f32', 8)}
      %zero = arith.constant 0 : i32
      %neg = arith.cmpi slt, %flag, %zero : i32
      %r = scf.if %neg -> ({tensor('f32', 8)}) {{
        %n = arith.negf %t : {tensor('f32', 8)}
        scf.yield %n : {tensor('f32', 8)}
      }} else {{
        scf.yield %t : {tensor('f32', 8)}
      }}
      %one = arith.constant 1 : i32
      %lim = arith.constant 100 : i32
      %w:2 = scf.while (%i = %one, %s = %r) : (i32, {tensor('f32', 8)}) -> (i32, {tensor('f32', 8)}) {{
        %go = arith.cmpi slt, %i, %lim : i32
        scf.condition(%go) %i, %s : i32, {tensor('f32', 8)}
      }} do {{
      ^bb0(%j: i32, %u: {tensor('f32', 8)}):
        %j2 = arith.muli %j, %flag : i32
        %j3 = math.absi %j2 : i32
        %u2 = arith.addf %u, %u : {tensor('f32', 8)}
        scf.yield %j3, %u2 : i32, {tensor('f32', 8)}
      }}
      "tile.store_own"(%z, %w#1) : ({out('f32', 8)}, {tensor('f32', 8)}) -> ()"""


@pytest.mark.parametrize("flag, doublings", [(-3, 5), (5, 3)])
def test_scf_if_and_while_with_tile_values(flag, doublings):
    x = np.arange(8, dtype=np.float32) + 1
    z = np.zeros(8, np.float32)
    run(f"%z: {out('f32', 8)}, %x: {view('f32', -1)}, %flag: i32", BRANCH, (1,), [z, x, flag])
    # |i * flag| grows 1 -> 3 -> 9 -> 27 -> 81 -> 243 (flag -3) or 1 -> 5 -> 25 -> 125 (flag 5)
    np.testing.assert_array_equal(z, (-x if flag < 0 else x) * 2.0 ** doublings)


def test_the_simt_launch_refuses_a_tile_kernel():
    text = module(f"%z: {out('f32', 8)}", f"""
      %t = arith.constant dense<2.0> : {tensor('f32', 8)}
      "tile.store_own"(%z, %t) : ({out('f32', 8)}, {tensor('f32', 8)}) -> ()""", name="fill")
    prog = program(text)
    with pytest.raises(LaunchError, match="is a tile kernel: launch it with oxide.runtime.emulator.launch_tile"):
        launch(prog, "fill", (1,), (128,), [np.zeros(8, np.float32)])


UNSUPPORTED = f"""
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : ({view('i32', -1)}) -> {part('i32', 8)}
      %a = "tile.load"(%p, %c0) : ({part('i32', 8)}, i32) -> tensor<8xi32>
      %r = math.ipowi %a, %a : tensor<8xi32> loc("k.rs":3:14)
      "tile.store_own"(%z, %r) : ({out('i32', 8)}, tensor<8xi32>) -> ()"""


def test_an_op_without_a_tile_rule_is_a_located_error():
    text = module(f"%z: {out('i32', 8)}, %x: {view('i32', -1)}", UNSUPPORTED)
    with pytest.raises(LoweringError, match=r"k.rs:3:14: .*the emulator cannot execute `math.ipowi`"):
        program(text)
    with _context(), ir.Location.unknown():
        lenient = emit_program(parse_source(text, "k.rs", _context()).module, strict=False)
    with pytest.raises(UnsupportedOperation, match="kernel `k` cannot run on the emulator"):
        launch_tile(lenient, "k", (1,), [np.zeros(8, np.int32), np.zeros(8, np.int32)])


SWITCH = f"""
      %r = scf.index_switch %sel -> {tensor('i32', 4)}
      case 2 {{
        %a = arith.constant dense<20> : {tensor('i32', 4)}
        scf.yield %a : {tensor('i32', 4)}
      }}
      case 5 {{
        %b = arith.constant dense<50> : {tensor('i32', 4)}
        scf.yield %b : {tensor('i32', 4)}
      }}
      default {{
        %c = arith.constant dense<-1> : {tensor('i32', 4)}
        scf.yield %c : {tensor('i32', 4)}
      }}
      "tile.store_own"(%z, %r) : ({out('i32', 4)}, {tensor('i32', 4)}) -> ()"""


@pytest.mark.parametrize("selector, expect", [(2, 20), (5, 50), (3, -1)])
def test_index_switch_picks_a_case_or_the_default(selector, expect):
    z = np.zeros(4, np.int32)
    run(f"%z: {out('i32', 4)}, %sel: index", SWITCH, (1,), [z, selector])
    np.testing.assert_array_equal(z, expect)


def test_a_kernel_lowered_to_simt_keeps_tile_warps_but_is_a_simt_kernel():
    text = ("module attributes {gpu.container_module} {\n  gpu.module @kernels {\n"
            "    gpu.func @k(%p: !simt.ptr<f32, 1>) kernel attributes {tile.warps = 4 : i32} {\n"
            "      gpu.return\n    }\n  }\n}\n")
    assert "'tile'" not in program(text) and "from oxide.runtime.emulator import tile" not in program(text)
