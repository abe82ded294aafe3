"""Tile loads and stores on the emulator: zero-padded partition loads, stores masked at the tensor's edge
(shapes not divisible by the tile), a block's own tile by block id on 1-D and 2-D grids, strided views,
nested partition_mut sub-grids and their trap, extents and counts."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator import KernelTrap, LaunchError
from tests.unit.runtime.emulator.tile.helpers import out, part, run, tensor, view

COPY_2D = f"""
      %bx = "tile.block_id"() {{axis = "x"}} : () -> i32
      %by = "tile.block_id"() {{axis = "y"}} : () -> i32
      %p = "tile.make_partition"(%x) : ({view('f32', -1, -1)}) -> {part('f32', 16, 8)}
      %t = "tile.load"(%p, %bx, %by) : ({part('f32', 16, 8)}, i32, i32) -> {tensor('f32', 16, 8)}
      %one = arith.constant dense<1.0> : {tensor('f32', 16, 8)}
      %s = arith.addf %t, %one : {tensor('f32', 16, 8)}
      "tile.store_own"(%z, %s) : ({out('f32', 16, 8)}, {tensor('f32', 16, 8)}) -> ()"""


def test_edge_tiles_of_a_2d_grid_are_loaded_zero_padded_and_stored_masked():
    x = np.arange(37 * 21, dtype=np.float32).reshape(37, 21)
    z = np.full((37, 21), -5.0, np.float32)
    run(f"%z: {out('f32', 16, 8)}, %x: {view('f32', -1, -1)}", COPY_2D, (3, 3), [z, x])
    np.testing.assert_array_equal(z, x + 1)


def test_a_strided_input_view_is_read_through_its_strides():
    big = np.arange(64 * 40, dtype=np.float32).reshape(64, 40)
    x = big[::2, 1::3].T  # (13, 32), neither dimension contiguous
    z = np.zeros(x.shape, np.float32)
    run(f"%z: {out('f32', 16, 8)}, %x: {view('f32', -1, -1)}", COPY_2D, (1, 4), [z, x])
    np.testing.assert_array_equal(z, x + 1)


def test_a_strided_output_is_written_through_its_strides():
    x = np.arange(16 * 8, dtype=np.float32).reshape(16, 8)
    backing = np.zeros((32, 8), np.float32)
    run(f"%z: {out('f32', 16, 8)}, %x: {view('f32', -1, -1)}", COPY_2D, (1, 1), [backing[::2], x])
    np.testing.assert_array_equal(backing[::2], x + 1)
    assert not backing[1::2].any()


def test_load_own_reads_the_blocks_output_tile_padded_with_zero():
    body = f"""
      %t = "tile.load_own"(%z) : ({out('i32', 8)}) -> {tensor('i32', 8)}
      %c = arith.constant dense<3> : {tensor('i32', 8)}
      %m = arith.muli %t, %c : {tensor('i32', 8)}
      %r = "tile.reduce"(%m) {{dim = 0 : i64, kind = "sum", unsigned = false}} : ({tensor('i32', 8)}) -> tensor<i32>
      %b = "tile.broadcast"(%r) : (tensor<i32>) -> {tensor('i32', 8)}
      %s = arith.addi %m, %b : {tensor('i32', 8)}
      "tile.store_own"(%z, %s) : ({out('i32', 8)}, {tensor('i32', 8)}) -> ()"""
    z = np.arange(20, dtype=np.int32)
    expect = z * 3
    for start in range(0, 20, 8):
        tile = expect[start:start + 8]
        expect[start:start + 8] = tile + tile.sum()
    run(f"%z: {out('i32', 8)}", body, (3,), [z])
    np.testing.assert_array_equal(z, expect)


NESTED = f"""
      %pm = "tile.make_partition_mut"(%z) : ({out('f32', 8, 8)}) -> !tile.partition_mut<f32, array<i64: 4, 8>>
      %i = arith.constant INDEX : i32
      %j = arith.constant 0 : i32
      %v = "tile.splat"(%s) : (f32) -> {tensor('f32', 4, 8)}
      "tile.store"(%pm, %v, %i, %j) : (!tile.partition_mut<f32, array<i64: 4, 8>>, {tensor('f32', 4, 8)}, i32, i32) -> () loc("k.rs":7:9)
      %n = "tile.num_tiles"(%pm) {{axis = 0 : i64}} : (!tile.partition_mut<f32, array<i64: 4, 8>>) -> i32
      %nf = arith.sitofp %n : i32 to f32
      %w = "tile.splat"(%nf) : (f32) -> {tensor('f32', 4, 8)}
      %o = arith.constant 0 : i32
      "tile.store"(%pm, %w, %o, %j) : (!tile.partition_mut<f32, array<i64: 4, 8>>, {tensor('f32', 4, 8)}, i32, i32) -> ()"""


def test_partition_mut_stores_land_in_the_blocks_own_sub_grid():
    z = np.zeros((14, 8), np.float32)
    run(f"%z: {out('f32', 8, 8)}, %s: f32", NESTED.replace("INDEX", "1"), (2, 1), [z, 7.0])
    expect = np.zeros((14, 8), np.float32)
    expect[0:4] = expect[8:12] = 2.0  # num_tiles of the sub-grid: 8 / 4
    expect[4:8] = expect[12:14] = 7.0  # the second block's tile reaches past the edge: masked
    np.testing.assert_array_equal(z, expect)


def test_partition_mut_store_outside_the_own_sub_grid_traps_with_its_location():
    z = np.zeros((16, 8), np.float32)
    with pytest.raises(KernelTrap) as info:
        run(f"%z: {out('f32', 8, 8)}, %s: f32", NESTED.replace("INDEX", "2"), (2, 1), [z, 7.0])
    message = str(info.value)
    assert message.startswith("kernel `k`, tile block (0, 0, 0): store at tile index (2, 0) is outside this "
                               "block's own tile grid (2, 1)")
    assert message.endswith("--> k.rs:7:9")
    assert not z.any()


def test_block_ids_counts_and_extents():
    body = f"""
      %bx = "tile.block_id"() {{axis = "x"}} : () -> i32
      %by = "tile.block_id"() {{axis = "y"}} : () -> i32
      %nx = "tile.num_blocks"() {{axis = "x"}} : () -> i32
      %ny = "tile.num_blocks"() {{axis = "y"}} : () -> i32
      %d0 = "tile.dim"(%x) {{axis = 0 : i64}} : ({view('i32', -1, 3)}) -> i32
      %d1 = "tile.dim"(%z) {{axis = 1 : i64}} : ({out('i32', 1, 4)}) -> i32
      %p = "tile.make_partition"(%x) : ({view('i32', -1, 3)}) -> {part('i32', 2, 2)}
      %t1 = "tile.num_tiles"(%p) {{axis = 1 : i64}} : ({part('i32', 2, 2)}) -> i32
      %a = "tile.splat"(%bx) : (i32) -> tensor<1xi32>
      %b = "tile.splat"(%by) : (i32) -> tensor<1xi32>
      %c = "tile.splat"(%nx) : (i32) -> tensor<1xi32>
      %d = "tile.splat"(%ny) : (i32) -> tensor<1xi32>
      %ab = "tile.cat"(%a, %b) {{dim = 0 : i64}} : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
      %cd = "tile.cat"(%c, %d) {{dim = 0 : i64}} : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
      %e = "tile.cat"(%ab, %cd) {{dim = 0 : i64}} : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
      %f = "tile.reshape"(%e) : (tensor<4xi32>) -> {tensor('i32', 1, 4)}
      %g = "tile.splat"(%d0) : (i32) -> {tensor('i32', 1, 4)}
      %h = "tile.splat"(%d1) : (i32) -> {tensor('i32', 1, 4)}
      %k = "tile.splat"(%t1) : (i32) -> {tensor('i32', 1, 4)}
      %c100 = arith.constant dense<100> : {tensor('i32', 1, 4)}
      %c10000 = arith.constant dense<10000> : {tensor('i32', 1, 4)}
      %c1000000 = arith.constant dense<1000000> : {tensor('i32', 1, 4)}
      %g2 = arith.muli %g, %c100 : {tensor('i32', 1, 4)}
      %h2 = arith.muli %h, %c10000 : {tensor('i32', 1, 4)}
      %k2 = arith.muli %k, %c1000000 : {tensor('i32', 1, 4)}
      %s1 = arith.addi %f, %g2 : {tensor('i32', 1, 4)}
      %s2 = arith.addi %s1, %h2 : {tensor('i32', 1, 4)}
      %s3 = arith.addi %s2, %k2 : {tensor('i32', 1, 4)}
      "tile.store_own"(%z, %s3) : ({out('i32', 1, 4)}, {tensor('i32', 1, 4)}) -> ()"""
    z = np.zeros((3, 8), np.int32)
    x = np.zeros((5, 3), np.int32)
    run(f"%z: {out('i32', 1, 4)}, %x: {view('i32', -1, 3)}", body, (3, 2), [z, x])
    for bx in range(3):
        for by in range(2):
            # block ids and counts, plus x's extent 5 (x100), z's extent 8 (x10000), x's 2 column tiles (x1e6)
            expect = np.array([bx, by, 3, 2]) + 500 + 80000 + 2000000
            np.testing.assert_array_equal(z[bx, by * 4:(by + 1) * 4], expect)


def test_launch_checks_arguments():
    params = f"%z: {out('f32', 16, 8)}, %x: {view('f32', -1, -1)}"
    with pytest.raises(LaunchError, match="takes 2 arguments, got 1"):
        run(params, COPY_2D, (1,), [np.zeros((16, 8), np.float32)])
    with pytest.raises(LaunchError, match="holds f32 elements, got an array of float64"):
        run(params, COPY_2D, (1,), [np.zeros((16, 8), np.float32), np.zeros((16, 8))])
    with pytest.raises(LaunchError, match="is a rank-2 tensor, got a 1-D array"):
        run(params, COPY_2D, (1,), [np.zeros((16, 8), np.float32), np.zeros(8, np.float32)])
