"""The issue's example kernels, hand-written as tile IR, on the emulator against numpy: fused row softmax,
RMSNorm and LayerNorm forward over (4 x 64)-row tiles, with a row count that is not a multiple of the tile
(the vector add and the bf16 GEMM are in test_memory.py and test_control.py). They are the references the
lowered kernels are compared with."""

from __future__ import annotations

import numpy as np

from tests.unit.runtime.emulator.tile.helpers import out, part, run, tensor, view

T, R, N = tensor("f32", 4, 64), tensor("f32", 4), tensor("f32", 4, 1)
X = view("f32", -1, 64)
ROWS = f"""
      %bid = "tile.block_id"() {{axis = "x"}} : () -> i32
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : ({X}) -> {part('f32', 4, 64)}
      %t = "tile.load"(%p, %bid, %c0) : ({part('f32', 4, 64)}, i32, i32) -> {T}"""


def _row_op(kind: str, source: str, name: str) -> str:
    """%<name>: the row-wise `kind` reduction of %<source>, broadcast back to the tile's shape."""
    return f"""
      %{name}_r = "tile.reduce"(%{source}) {{dim = 1 : i64, kind = "{kind}", unsigned = 0 : i64}} : ({T}) -> {R}
      %{name}_c = "tile.reshape"(%{name}_r) : ({R}) -> {N}
      %{name} = "tile.broadcast"(%{name}_c) : ({N}) -> {T}"""


SOFTMAX = ROWS + _row_op("max", "t", "mx") + f"""
      %d = arith.subf %t, %mx : {T}
      %e = math.exp %d : {T}""" + _row_op("sum", "e", "sm") + f"""
      %r = arith.divf %e, %sm : {T}
      "tile.store_own"(%z, %r) : ({out('f32', 4, 64)}, {T}) -> ()"""

# Shared by RMSNorm and LayerNorm: %inv_n (1 / row length, from the tensor's extent), %eps_t, %wb (w broadcast).
NORM_COMMON = f"""
      %n = "tile.dim"(%x) {{axis = 1 : i64}} : ({X}) -> i32
      %nf = arith.sitofp %n : i32 to f32
      %one = arith.constant 1.0 : f32
      %inv = arith.divf %one, %nf : f32
      %inv_n = "tile.splat"(%inv) : (f32) -> {T}
      %eps_t = "tile.splat"(%eps) : (f32) -> {T}
      %pw = "tile.make_partition"(%w) : ({view('f32', 64)}) -> {part('f32', 64)}
      %wt = "tile.load"(%pw, %c0) : ({part('f32', 64)}, i32) -> tensor<64xf32>
      %wb = "tile.broadcast"(%wt) : (tensor<64xf32>) -> {T}"""

RMSNORM = ROWS + NORM_COMMON + f"""
      %sq = arith.mulf %t, %t : {T}""" + _row_op("sum", "sq", "ss") + f"""
      %ms = arith.mulf %ss, %inv_n : {T}
      %me = arith.addf %ms, %eps_t : {T}
      %rs = math.rsqrt %me : {T}
      %y = arith.mulf %t, %rs : {T}
      %r = arith.mulf %y, %wb : {T}
      "tile.store_own"(%z, %r) : ({out('f32', 4, 64)}, {T}) -> ()"""

LAYERNORM = ROWS + NORM_COMMON + f"""
      %pb = "tile.make_partition"(%b) : ({view('f32', 64)}) -> {part('f32', 64)}
      %bt = "tile.load"(%pb, %c0) : ({part('f32', 64)}, i32) -> tensor<64xf32>
      %bb = "tile.broadcast"(%bt) : (tensor<64xf32>) -> {T}""" + _row_op("sum", "t", "sx") + f"""
      %mean = arith.mulf %sx, %inv_n : {T}
      %xc = arith.subf %t, %mean : {T}
      %sq = arith.mulf %xc, %xc : {T}""" + _row_op("sum", "sq", "sv") + f"""
      %var = arith.mulf %sv, %inv_n : {T}
      %ve = arith.addf %var, %eps_t : {T}
      %rs = math.rsqrt %ve : {T}
      %y = arith.mulf %xc, %rs : {T}
      %yw = arith.mulf %y, %wb : {T}
      %r = arith.addf %yw, %bb : {T}
      "tile.store_own"(%z, %r) : ({out('f32', 4, 64)}, {T}) -> ()"""

RNG = np.random.default_rng(11)
M = 37  # rows: the last tile block's tile reaches past the tensor
XS = (RNG.standard_normal((M, 64)) * 3).astype(np.float32)
W = RNG.standard_normal(64).astype(np.float32)
B = RNG.standard_normal(64).astype(np.float32)
GRID = (-(-M // 4),)


def test_fused_row_softmax():
    z = np.zeros_like(XS)
    run(f"%z: {out('f32', 4, 64)}, %x: {X}", SOFTMAX, GRID, [z, XS])
    e = np.exp(XS - XS.max(1, keepdims=True))
    np.testing.assert_allclose(z, e / e.sum(1, keepdims=True), rtol=2e-6, atol=1e-7)


def test_rmsnorm_forward():
    z = np.zeros_like(XS)
    run(f"%z: {out('f32', 4, 64)}, %x: {X}, %w: {view('f32', 64)}, %eps: f32", RMSNORM, GRID, [z, XS, W, 1e-6])
    expect = XS / np.sqrt((XS.astype(np.float64) ** 2).mean(1, keepdims=True) + 1e-6) * W
    np.testing.assert_allclose(z, expect, rtol=1e-5, atol=1e-6)


def test_layernorm_forward():
    z = np.zeros_like(XS)
    run(f"%z: {out('f32', 4, 64)}, %x: {X}, %w: {view('f32', 64)}, %b: {view('f32', 64)}, %eps: f32", LAYERNORM,
        GRID, [z, XS, W, B, 1e-5])
    x64 = XS.astype(np.float64)
    centred = x64 - x64.mean(1, keepdims=True)
    expect = centred / np.sqrt((centred ** 2).mean(1, keepdims=True) + 1e-5) * W + B
    np.testing.assert_allclose(z, expect, rtol=1e-5, atol=1e-5)
