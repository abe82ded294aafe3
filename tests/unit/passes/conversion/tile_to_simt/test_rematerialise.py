"""Rematerialisation (tile_to_simt/rematerialise.py): index and mask tiles built from iotas, splats and
constants are rebuilt in the layout of the tile they meet (here a transposed load, whose layout is not the
blocked one) instead of moving through shared memory; the emulated results match numpy."""

from __future__ import annotations

import numpy as np

from tests.unit.passes.conversion.tile_to_simt.harness import lower, run_unary, unary_kernel

SRC, DST = (32, 64), (64, 32)
T = "tensor<64x32xi32>"

# rows: iota [64] as a column; cols: iota [32] as a row, reached through a transpose of a [32, 64] broadcast;
# flat: iota [2048] reshaped to [64, 32] (both coordinates split from one flat index).
BODY = f"""      %t = "tile.permute"(%a) {{perm = array<i64: 1, 0>}} : (tensor<32x64xi32>) -> {T}
      %ri = "tile.iota"() : () -> tensor<64xi32>
      %rr = "tile.reshape"(%ri) : (tensor<64xi32>) -> tensor<64x1xi32>
      %rows = "tile.broadcast"(%rr) : (tensor<64x1xi32>) -> {T}
      %ci = "tile.iota"() : () -> tensor<32xi32>
      %cr = "tile.reshape"(%ci) : (tensor<32xi32>) -> tensor<32x1xi32>
      %cb = "tile.broadcast"(%cr) : (tensor<32x1xi32>) -> tensor<32x64xi32>
      %cols = "tile.permute"(%cb) {{perm = array<i64: 1, 0>}} : (tensor<32x64xi32>) -> {T}
      %fi = "tile.iota"() : () -> tensor<2048xi32>
      %flat = "tile.reshape"(%fi) : (tensor<2048xi32>) -> {T}
      %c3 = arith.constant 3 : i32
      %three = "tile.splat"(%c3) : (i32) -> {T}
      %shifted = arith.addi %cols, %three : {T}
      %below = arith.cmpi sle, %shifted, %rows : {T}
      %u = arith.muli %t, %t : {T}
      %s = arith.select %below, %t, %u : tensor<64x32xi1>, {T}
      %r = arith.addi %flat, %s : {T}"""


def _want(x: np.ndarray) -> np.ndarray:
    t = x.T
    rows, cols = np.indices(DST)
    return np.arange(64 * 32).reshape(DST) + np.where(cols + 3 <= rows, t, t * t)


def test_rebuilt_masks_match_numpy():
    x = np.random.default_rng(1).integers(-100, 100, SRC).astype(np.int32)
    got = run_unary(unary_kernel(SRC, DST, BODY, "i32"), x, DST)
    np.testing.assert_array_equal(got, _want(x))


def test_only_the_store_moves_data():
    """The transposed tiles lead; the index and mask tiles are rebuilt in their layout, so the one round trip
    through shared memory (one barrier) is the store's into the blocked layout."""
    assert lower(unary_kernel(SRC, DST, BODY, "i32")).count('"simt.sync_threads"') == 1
