"""Tile kernels lowered by convert-tile-to-simt and run on the simt emulator give numpy's results.

Each test lowers a hand-written tile kernel (the IR the tile frontend emits) and launches the simt kernel with
one block per output tile and 32 * warps threads, as the tile runtime does.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.unit.passes.conversion.tile_to_simt.harness import (
    module_text,
    run_tile,
    run_unary,
    shape_text,
    tensor,
    unary_kernel,
    view,
)

RNG = np.random.default_rng(7)


def _reduce(shape, dim, kind, elem="f32", warps=4):
    out = list(shape[:dim]) + list(shape[dim + 1:])
    body = (f'      %r = "tile.reduce"(%a) {{dim = {dim} : i64, kind = "{kind}", unsigned = false}} : '
            f'({tensor(shape, elem)}) -> {tensor(out, elem)}')
    return unary_kernel(shape, out, body, elem, warps=warps), out


def _data(shape, dtype):
    if np.dtype(dtype).kind == "f":
        return RNG.standard_normal(shape).astype(dtype)
    return RNG.integers(-50, 50, shape).astype(dtype)


NUMPY_REDUCE = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}


@pytest.mark.parametrize("shape,dim", [((16, 64), 0), ((16, 64), 1), ((4, 8, 32), 0), ((4, 8, 32), 1),
                                       ((4, 8, 32), 2), ((256, 8), 0), ((2, 512), 1), ((8, 4), 1)])
@pytest.mark.parametrize("kind", ["sum", "max", "min"])
def test_reduce_along_each_dim(shape, dim, kind):
    text, out = _reduce(shape, dim, kind)
    x = _data(shape, np.float32)
    z = run_unary(text, x, out)
    np.testing.assert_allclose(z, NUMPY_REDUCE[kind](x, axis=dim), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kind", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("warps", [1, 4, 8])
def test_integer_reduce(kind, warps):
    shape = (8, 64)
    text, out = _reduce(shape, 1, kind, "i32", warps)
    x = RNG.integers(-3, 4, shape).astype(np.int32)
    np.testing.assert_array_equal(run_unary(text, x, out, warps=warps), NUMPY_REDUCE[kind](x, axis=1))


def test_reduce_to_scalar_then_broadcast():
    shape = (32, 32)
    body = f"""      %s0 = "tile.reduce"(%a) {{dim = 1 : i64, kind = "sum", unsigned = false}} : ({tensor(shape)}) -> {tensor([32])}
      %s1 = "tile.reduce"(%s0) {{dim = 0 : i64, kind = "sum", unsigned = false}} : ({tensor([32])}) -> tensor<f32>
      %v = "tile.to_scalar"(%s1) : (tensor<f32>) -> f32
      %b = "tile.splat"(%v) : (f32) -> {tensor(shape)}
      %r = arith.subf %a, %b : {tensor(shape)}"""
    x = _data(shape, np.float32)
    z = run_unary(unary_kernel(shape, shape, body), x, shape)
    np.testing.assert_allclose(z, x - x.sum(), rtol=1e-5, atol=1e-4)


def _softmax_kernel(rows, cols, warps):
    t = tensor([rows, cols])
    col = tensor([rows, 1])
    v = tensor([rows])
    body = f"""      %m = "tile.reduce"(%a) {{dim = 1 : i64, kind = "max", unsigned = false}} : ({t}) -> {v}
      %m1 = "tile.reshape"(%m) : ({v}) -> {col}
      %mb = "tile.broadcast"(%m1) : ({col}) -> {t}
      %d = arith.subf %a, %mb : {t}
      %e = math.exp %d : {t}
      %s = "tile.reduce"(%e) {{dim = 1 : i64, kind = "sum", unsigned = false}} : ({t}) -> {v}
      %s1 = "tile.reshape"(%s) : ({v}) -> {col}
      %sb = "tile.broadcast"(%s1) : ({col}) -> {t}
      %r = arith.divf %e, %sb : {t}"""
    return unary_kernel([rows, cols], [rows, cols], body, warps=warps)


# (4, 2048, 16) and (8, 1024, 16): more (row, warp) partial totals than a warp has lanes (64 and 128 slots), which
# reduce._total_by_lanes reads in chunks of 32.
@pytest.mark.parametrize("rows,cols,warps", [(1, 128, 4), (4, 256, 4), (16, 64, 8), (2, 1024, 4), (8, 32, 1),
                                             (4, 2048, 16), (8, 1024, 16)])
def test_row_softmax(rows, cols, warps):
    x = _data((rows, cols), np.float32)
    z = run_unary(_softmax_kernel(rows, cols, warps), x, (rows, cols), warps=warps)
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(z, e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)


def test_softmax_broadcast_moves_no_data():
    from tests.unit.passes.conversion.tile_to_simt.harness import lower

    text = lower(_softmax_kernel(16, 64, 4))
    # Shared memory only for the cross-warp steps of the two reductions? None here: a 16x64 tile over 4 warps
    # puts every row inside one warp, so rows reduce by shuffles and the broadcasts are register-local.
    assert "simt.shared_array" not in text
    assert text.count('"simt.shuffle"') > 0


@pytest.mark.parametrize("shape,dim,kind,reverse", [((128,), 0, "sum", 0), ((128,), 0, "sum", 1),
                                                    ((16, 64), 1, "sum", 0),
                                                    ((16, 64), 0, "sum", 0), ((16, 64), 0, "max", 1),
                                                    ((4, 8, 32), 2, "sum", 1), ((4, 8, 32), 0, "min", 0),
                                                    ((512,), 0, "sum", 0), ((2, 512), 1, "max", 0)])
def test_scan(shape, dim, kind, reverse):
    body = (f'      %r = "tile.scan"(%a) {{dim = {dim} : i64, kind = "{kind}", reverse = {reverse} : i64, '
            f'unsigned = false}} : ({tensor(shape)}) -> {tensor(shape)}')
    x = _data(shape, np.float32)
    z = run_unary(unary_kernel(shape, shape, body), x, shape)
    ufunc = {"sum": np.add, "max": np.maximum, "min": np.minimum}[kind]
    src = np.flip(x, dim) if reverse else x
    expected = ufunc.accumulate(src, axis=dim)
    expected = np.flip(expected, dim) if reverse else expected
    np.testing.assert_allclose(z, expected, rtol=1e-5, atol=1e-4)


def test_integer_scan():
    shape = (8, 64)
    body = (f'      %r = "tile.scan"(%a) {{dim = 1 : i64, kind = "sum", reverse = 0 : i64, unsigned = false}} : '
            f'({tensor(shape, "i32")}) -> {tensor(shape, "i32")}')
    x = _data(shape, np.int32)
    np.testing.assert_array_equal(run_unary(unary_kernel(shape, shape, body, "i32"), x, shape), np.cumsum(x, 1))


@pytest.mark.parametrize("perm", [(1, 0), (0, 1)])
@pytest.mark.parametrize("shape", [(16, 64), (64, 8), (4, 4)])
def test_permute_2d(shape, perm):
    out = [shape[p] for p in perm]
    body = (f'      %r = "tile.permute"(%a) {{perm = array<i64: {", ".join(map(str, perm))}>}} : '
            f'({tensor(shape)}) -> {tensor(out)}')
    x = _data(shape, np.float32)
    np.testing.assert_array_equal(run_unary(unary_kernel(shape, out, body), x, out), np.transpose(x, perm))


def test_permute_3d_then_elementwise_with_a_blocked_tile():
    shape, perm = (4, 8, 16), (2, 0, 1)
    out = [shape[p] for p in perm]
    body = f"""      %t = "tile.permute"(%a) {{perm = array<i64: 2, 0, 1>}} : ({tensor(shape)}) -> {tensor(out)}
      %c = arith.constant dense<2.0> : {tensor(out)}
      %i = "tile.iota"() : () -> {tensor([16], "i32")}
      %f = arith.sitofp %i : {tensor([16], "i32")} to {tensor([16])}
      %f3 = "tile.reshape"(%f) : ({tensor([16])}) -> {tensor([16, 1, 1])}
      %fb = "tile.broadcast"(%f3) : ({tensor([16, 1, 1])}) -> {tensor(out)}
      %m = arith.mulf %t, %c : {tensor(out)}
      %r = arith.addf %m, %fb : {tensor(out)}"""
    x = _data(shape, np.float32)
    expected = np.transpose(x, perm) * 2 + np.arange(16, dtype=np.float32)[:, None, None]
    np.testing.assert_allclose(run_unary(unary_kernel(shape, out, body), x, out), expected, rtol=1e-6)


@pytest.mark.parametrize("src,dst", [((16, 64), (1024,)), ((16, 64), (64, 16)), ((8, 8, 8), (64, 8)),
                                     ((128,), (2, 4, 16))])
def test_reshape(src, dst):
    body = f'      %r = "tile.reshape"(%a) : ({tensor(src)}) -> {tensor(dst)}'
    x = _data(src, np.float32)
    np.testing.assert_array_equal(run_unary(unary_kernel(src, dst, body), x, dst), x.reshape(dst))


@pytest.mark.parametrize("src,dst", [((64,), (16, 64)), ((16, 1), (16, 64)), ((1, 64), (16, 64)), ((1,), (256,)),
                                     ((4, 1, 8), (4, 16, 8)), ((8,), (2, 4, 8))])
def test_broadcast(src, dst):
    body = f'      %r = "tile.broadcast"(%a) : ({tensor(src)}) -> {tensor(dst)}'
    x = _data(src, np.float32)
    np.testing.assert_array_equal(run_unary(unary_kernel(src, dst, body), x, dst), np.broadcast_to(x, dst))


def test_broadcast_rank4_reduced_back():
    src, mid, dst = (4, 1, 8), (2, 4, 16, 8), (4, 16, 8)
    body = f"""      %b = "tile.broadcast"(%a) : ({tensor(src)}) -> {tensor(mid)}
      %r = "tile.reduce"(%b) {{dim = 0 : i64, kind = "sum", unsigned = false}} : ({tensor(mid)}) -> {tensor(dst)}"""
    x = _data(src, np.float32)
    np.testing.assert_allclose(run_unary(unary_kernel(src, dst, body), x, dst), np.broadcast_to(2 * x, dst), rtol=1e-6)


@pytest.mark.parametrize("dim", [0, 1])
def test_cat(dim):
    shape = (16, 32)
    out = [32, 32] if dim == 0 else [16, 64]
    body = f"""      %b = arith.negf %a : {tensor(shape)}
      %r = "tile.cat"(%a, %b) {{dim = {dim} : i64}} : ({tensor(shape)}, {tensor(shape)}) -> {tensor(out)}"""
    x = _data(shape, np.float32)
    np.testing.assert_array_equal(run_unary(unary_kernel(shape, out, body), x, out), np.concatenate([x, -x], dim))


def test_extract():
    shape, sub = (32, 64), (8, 16)
    body = f"""      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %r = "tile.extract"(%a, %c3, %c1) : ({tensor(shape)}, i32, i32) -> {tensor(sub)}"""
    x = _data(shape, np.float32)
    np.testing.assert_array_equal(run_unary(unary_kernel(shape, sub, body), x, sub), x[24:32, 16:32])


def test_select_compare_and_casts():
    shape = (8, 128)
    t, ti, tb, th = tensor(shape), tensor(shape, "i32"), tensor(shape, "i1"), tensor(shape, "f16")
    body = f"""      %zero = arith.constant dense<0.0> : {t}
      %pos = arith.cmpf ogt, %a, %zero : {t}
      %n = arith.negf %a : {t}
      %abs = arith.select %pos, %a, %n : {tb}, {t}
      %h = arith.truncf %abs : {t} to {th}
      %w = arith.extf %h : {th} to {t}
      %i = arith.fptosi %w : {t} to {ti}
      %back = arith.sitofp %i : {ti} to {t}
      %r = arith.subf %w, %back : {t}"""
    x = (_data(shape, np.float32) * 10).astype(np.float32)
    w = np.abs(x).astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(run_unary(unary_kernel(shape, shape, body), x, shape), w - np.trunc(w))


def test_vector_add_with_a_ragged_edge():
    text = module_text("""    gpu.func @add(%z: !tile.view_mut<f32, array<i64: 256>>, %x: !tile.view<f32, array<i64: -1>>, %y: !tile.view<f32, array<i64: -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bid = "tile.block_id"() {axis = "x"} : () -> i32
      %px = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 256>>
      %py = "tile.make_partition"(%y) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 256>>
      %a = "tile.load"(%px, %bid) : (!tile.partition<f32, array<i64: 256>>, i32) -> tensor<256xf32>
      %b = "tile.load"(%py, %bid) : (!tile.partition<f32, array<i64: 256>>, i32) -> tensor<256xf32>
      %c = arith.addf %a, %b : tensor<256xf32>
      "tile.store_own"(%z, %c) : (!tile.view_mut<f32, array<i64: 256>>, tensor<256xf32>) -> ()
      gpu.return
    }""")
    n = 1000
    x, y = _data(n, np.float32), _data(n, np.float32)
    z = np.full(n + 8, 7.0, np.float32)
    run_tile(text, "add", [4], [*view(z[:n]), *view(x), *view(y)])
    np.testing.assert_array_equal(z[:n], x + y)
    np.testing.assert_array_equal(z[n:], 7.0)  # nothing written past the tensor's edge


def test_strided_2d_views_and_a_2d_grid():
    text = module_text("""    gpu.func @t(%z: !tile.view_mut<f32, array<i64: 16, 32>>, %x: !tile.view<f32, array<i64: -1, -1>>) kernel attributes {tile.warps = 2 : i32} {
      %bx = "tile.block_id"() {axis = "x"} : () -> i32
      %by = "tile.block_id"() {axis = "y"} : () -> i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 16, 32>>
      %a = "tile.load"(%p, %bx, %by) : (!tile.partition<f32, array<i64: 16, 32>>, i32, i32) -> tensor<16x32xf32>
      "tile.store_own"(%z, %a) : (!tile.view_mut<f32, array<i64: 16, 32>>, tensor<16x32xf32>) -> ()
      gpu.return
    }""")
    big = _data((50, 70), np.float32)
    x = big.T  # a transposed (column-major) view: strides (1, 70)
    z = np.zeros((70, 50), np.float32)
    run_tile(text, "t", [5, 2], [*view(z), big.reshape(-1), np.int64(70), np.int64(50), np.int64(1), np.int64(70)],
             warps=2)
    np.testing.assert_array_equal(z, x)


def test_loop_with_a_carried_tile():
    text = module_text("""    gpu.func @rowsum(%z: !tile.view_mut<f32, array<i64: 32>>, %x: !tile.view<f32, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bid = "tile.block_id"() {axis = "x"} : () -> i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 32, 64>>
      %cols = "tile.num_tiles"(%p) {axis = 1 : i64} : (!tile.partition<f32, array<i64: 32, 64>>) -> i32
      %zero = arith.constant dense<0.0> : tensor<32x64xf32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %acc = scf.for %j = %c0 to %cols step %c1 iter_args(%s = %zero) -> (tensor<32x64xf32>) : i32 {
        %t = "tile.load"(%p, %bid, %j) : (!tile.partition<f32, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xf32>
        %n = arith.addf %s, %t : tensor<32x64xf32>
        scf.yield %n : tensor<32x64xf32>
      }
      %r = "tile.reduce"(%acc) {dim = 1 : i64, kind = "sum", unsigned = false} : (tensor<32x64xf32>) -> tensor<32xf32>
      "tile.store_own"(%z, %r) : (!tile.view_mut<f32, array<i64: 32>>, tensor<32xf32>) -> ()
      gpu.return
    }""")
    x = _data((70, 300), np.float32)
    z = np.zeros(70, np.float32)
    run_tile(text, "rowsum", [3], [*view(z), *view(x)])
    np.testing.assert_allclose(z, x.sum(1), rtol=1e-4, atol=1e-4)


def test_if_with_tile_results_and_scalar_params():
    text = module_text("""    gpu.func @k(%z: !tile.view_mut<f32, array<i64: 128>>, %x: !tile.view<f32, array<i64: -1>>, %flag: i32, %s: f32) kernel attributes {tile.warps = 4 : i32} {
      %bid = "tile.block_id"() {axis = "x"} : () -> i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 128>>
      %a = "tile.load"(%p, %bid) : (!tile.partition<f32, array<i64: 128>>, i32) -> tensor<128xf32>
      %c0 = arith.constant 0 : i32
      %on = arith.cmpi ne, %flag, %c0 : i32
      %r = scf.if %on -> (tensor<128xf32>) {
        %b = "tile.splat"(%s) : (f32) -> tensor<128xf32>
        %m = arith.mulf %a, %b : tensor<128xf32>
        scf.yield %m : tensor<128xf32>
      } else {
        scf.yield %a : tensor<128xf32>
      }
      "tile.store_own"(%z, %r) : (!tile.view_mut<f32, array<i64: 128>>, tensor<128xf32>) -> ()
      gpu.return
    }""")
    x = _data(256, np.float32)
    for flag, expected in ((1, x * 3), (0, x)):
        z = np.zeros(256, np.float32)
        run_tile(text, "k", [2], [*view(z), *view(x), np.int32(flag), np.float32(3.0)])
        np.testing.assert_array_equal(z, expected)


def _sub_store_kernel(index: str) -> str:
    return module_text(f"""    gpu.func @k(%z: !tile.view_mut<f32, array<i64: 64>>, %x: !tile.view<f32, array<i64: -1>>, %i: i32) kernel attributes {{tile.warps = 1 : i32}} {{
      %q = "tile.make_partition_mut"(%z) : (!tile.view_mut<f32, array<i64: 64>>) -> !tile.partition_mut<f32, array<i64: 16>>
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 16>>
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %n = "tile.num_tiles"(%q) {{axis = 0 : i64}} : (!tile.partition_mut<f32, array<i64: 16>>) -> i32
      %c1 = arith.constant 1 : i32
      scf.for %j = %c0 to %n step %c1 : i32 {{
        %t = "tile.load"(%p, %j) : (!tile.partition<f32, array<i64: 16>>, i32) -> tensor<16xf32>
        %k = {index}
        "tile.store"(%q, %t, %k) : (!tile.partition_mut<f32, array<i64: 16>>, tensor<16xf32>, i32) -> ()
      }}
      gpu.return
    }}""")


def test_partition_mut_store_in_own_subgrid():
    # Block b copies x[0:64] into its own tile z[64b : 64b + 64], 16 elements at a time.
    text = _sub_store_kernel("arith.addi %j, %c0 : i32")
    x = _data(64, np.float32)
    z = np.zeros(128, np.float32)
    run_tile(text, "k", [2], [*view(z), *view(x), np.int32(0)], warps=1)
    np.testing.assert_array_equal(z, np.concatenate([x, x]))


def test_partition_mut_store_outside_own_subgrid_traps():
    from oxide.runtime.emulator.errors import KernelTrap

    text = _sub_store_kernel("arith.addi %j, %i : i32")
    x, z = _data(64, np.float32), np.zeros(128, np.float32)
    with pytest.raises(KernelTrap):
        run_tile(text, "k", [2], [*view(z), *view(x), np.int32(1)], warps=1)


def test_rank3_output_over_a_3d_grid():
    shape = (2, 4, 8)
    own = f"!tile.view_mut<f32, {shape_text(shape)}>"
    text = module_text(f"""    gpu.func @k(%z: {own}) kernel attributes {{tile.warps = 1 : i32}} {{
      %bx = "tile.block_id"() {{axis = "x"}} : () -> i32
      %by = "tile.block_id"() {{axis = "y"}} : () -> i32
      %bz = "tile.block_id"() {{axis = "z"}} : () -> i32
      %c100 = arith.constant 100 : i32
      %c10 = arith.constant 10 : i32
      %x100 = arith.muli %bx, %c100 : i32
      %y10 = arith.muli %by, %c10 : i32
      %s0 = arith.addi %x100, %y10 : i32
      %s = arith.addi %s0, %bz : i32
      %f = arith.sitofp %s : i32 to f32
      %t = "tile.splat"(%f) : (f32) -> {tensor(shape)}
      "tile.store_own"(%z, %t) : ({own}, {tensor(shape)}) -> ()
      gpu.return
    }}""")
    z = np.zeros((4, 8, 16), np.float32)
    from oxide.runtime.emulator import launch
    from tests.unit.passes.conversion.tile_to_simt.harness import program

    launch(program(text), "k", (2, 2, 2), (32, 1, 1), [*view(z)])
    b = np.indices((2, 2, 2))
    expected = (b[0] * 100 + b[1] * 10 + b[2]).astype(np.float32)
    np.testing.assert_array_equal(z, np.kron(expected, np.ones(shape, np.float32)))


@pytest.mark.parametrize("offset", [0, 1, 2])
def test_vector_path_and_misaligned_views_agree(offset):
    # offset 0: 16-byte aligned rows, the vector path; 1 and 2: the same data misaligned, the scalar path.
    text = _softmax_kernel(4, 256, 4)
    x = np.zeros(4 * 256 + 4, np.float32)
    x[offset:offset + 1024] = _data(1024, np.float32)
    z = np.full(4 * 256 + 4, 5.0, np.float32)
    abi = [np.int64(4), np.int64(256), np.int64(256), np.int64(1)]
    run_tile(text, "k", [1], [z[offset:offset + 1024], *abi, x[offset:offset + 1024], *abi])
    rows = x[offset:offset + 1024].reshape(4, 256)
    e = np.exp(rows - rows.max(1, keepdims=True))
    np.testing.assert_allclose(z[offset:offset + 1024].reshape(4, 256), e / e.sum(1, keepdims=True), rtol=1e-5)
    assert (np.delete(z, np.arange(offset, offset + 1024)) == 5.0).all()


@pytest.mark.parametrize("size", [256, 16])
def test_atomic_histogram_counts_each_element_once(size):
    # size 16 < 128 threads: the tile is replicated over the block, and only each element's owner adds.
    t, tb = tensor([size], "i32"), tensor([size], "i1")
    text = module_text(f"""    gpu.func @hist(%out: !tile.ptr<i32>, %x: !tile.view<i32, array<i64: -1>>) kernel attributes {{tile.warps = 4 : i32}} {{
      %bid = "tile.block_id"() {{axis = "x"}} : () -> i32
      %p = "tile.make_partition"(%x) : (!tile.view<i32, array<i64: -1>>) -> !tile.partition<i32, array<i64: {size}>>
      %a = "tile.load"(%p, %bid) : (!tile.partition<i32, array<i64: {size}>>, i32) -> {t}
      %ones = arith.constant dense<1> : {t}
      %c5 = arith.constant dense<5> : {t}
      %keep = arith.cmpi ne, %a, %c5 : {t}
      %old = "tile.atomic_rmw"(%out, %a, %ones, %keep) {{kind = "add"}} : (!tile.ptr<i32>, {t}, {t}, {tb}) -> {t}
      gpu.return
    }}""")
    x = RNG.integers(0, 10, size * 3).astype(np.int32)
    counts = np.zeros(10, np.int32)
    run_tile(text, "hist", [3], [counts, *view(x)])
    expected = np.bincount(x, minlength=10).astype(np.int32)
    expected[5] = 0
    np.testing.assert_array_equal(counts, expected)


def test_atomic_old_values_reach_every_holder():
    t, tb = tensor([16], "i32"), tensor([16], "i1")
    own = "!tile.view_mut<i32, array<i64: 16>>"
    text = module_text(f"""    gpu.func @k(%z: {own}, %out: !tile.ptr<i32>) kernel attributes {{tile.warps = 4 : i32}} {{
      %i = "tile.iota"() : () -> {t}
      %ones = arith.constant dense<1> : {t}
      %all = arith.constant dense<true> : {tb}
      %old = "tile.atomic_rmw"(%out, %i, %ones, %all) {{kind = "add"}} : (!tile.ptr<i32>, {t}, {t}, {tb}) -> {t}
      %r = "tile.reduce"(%old) {{dim = 0 : i64, kind = "sum", unsigned = false}} : ({t}) -> tensor<i32>
      %s = "tile.to_scalar"(%r) : (tensor<i32>) -> i32
      %b = "tile.splat"(%s) : (i32) -> {t}
      %sum = arith.addi %old, %b : {t}
      "tile.store_own"(%z, %sum) : ({own}, {t}) -> ()
      gpu.return
    }}""")
    cells = (100 + np.arange(16)).astype(np.int32)
    z = np.zeros(16, np.int32)
    run_tile(text, "k", [1], [*view(z), cells])
    old = 100 + np.arange(16)
    np.testing.assert_array_equal(cells, old + 1)
    np.testing.assert_array_equal(z, old + old.sum())


def test_while_loop_with_a_tile():
    # Halve the tile until its largest element is below 1; count the rounds.
    t = tensor([8, 64])
    text = unary_kernel([8, 64], [8, 64], f"""      %one = arith.constant 1.0 : f32
      %half = arith.constant dense<0.5> : {t}
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %res:2 = scf.while (%v = %a, %n = %c0) : ({t}, i32) -> ({t}, i32) {{
        %m = "tile.reduce"(%v) {{dim = 1 : i64, kind = "max", unsigned = false}} : ({t}) -> {tensor([8])}
        %mm = "tile.reduce"(%m) {{dim = 0 : i64, kind = "max", unsigned = false}} : ({tensor([8])}) -> tensor<f32>
        %s = "tile.to_scalar"(%mm) : (tensor<f32>) -> f32
        %go = arith.cmpf oge, %s, %one : f32
        scf.condition(%go) %v, %n : {t}, i32
      }} do {{
      ^bb0(%w: {t}, %k: i32):
        %h = arith.mulf %w, %half : {t}
        %k1 = arith.addi %k, %c1 : i32
        scf.yield %h, %k1 : {t}, i32
      }}
      %nf = arith.sitofp %res#1 : i32 to f32
      %nt = "tile.splat"(%nf) : (f32) -> {t}
      %r = arith.addf %res#0, %nt : {t}""")
    x = np.abs(_data((8, 64), np.float32)) * 20
    rounds = 0
    y = x.copy()
    while y.max() >= 1:
        y *= np.float32(0.5)
        rounds += 1
    np.testing.assert_array_equal(run_unary(text, x, (8, 64)), y + rounds)


def test_partition_mut_store_at_a_constant_index():
    text = _sub_store_kernel("arith.constant 2 : i32")
    x = _data(64, np.float32)
    z = np.zeros(128, np.float32)
    run_tile(text, "k", [2], [*view(z), *view(x), np.int32(0)], warps=1)
    # Every iteration stores its tile at sub-tile 2 of the block's own 64 elements; the last one (x[48:64]) stays.
    expected = np.zeros(128, np.float32)
    expected[32:48] = expected[96:112] = x[48:64]
    np.testing.assert_array_equal(z, expected)


def _norm_kernel(rows: int, cols: int, warps: int, rms: bool) -> str:
    """LayerNorm (or RMSNorm) forward over rows of a (M, N) tensor, N <= cols: one block per `rows` rows."""
    t, v, col, row = tensor([rows, cols]), tensor([rows]), tensor([rows, 1]), tensor([1, cols])
    tb, ti = tensor([rows, cols], "i1"), tensor([rows, cols], "i32")
    vec = "!tile.view<f32, array<i64: -1>>"
    centre = "%x0" if rms else "%xc"
    mean = "" if rms else f"""      %s = "tile.reduce"(%a) {{dim = 1 : i64, kind = "sum", unsigned = false}} : ({t}) -> {v}
      %mean = arith.mulf %s, %inv_n : {v}
      %mean1 = "tile.reshape"(%mean) : ({v}) -> {col}
      %meanb = "tile.broadcast"(%mean1) : ({col}) -> {t}
      %xd = arith.subf %a, %meanb : {t}
      %xc = arith.select %inside, %xd, %zero : {tb}, {t}"""
    bias = "" if rms else f"""      %pb = "tile.make_partition"(%b) : ({vec}) -> !tile.partition<f32, array<i64: {cols}>>
      %bt = "tile.load"(%pb, %c0) : (!tile.partition<f32, array<i64: {cols}>>, i32) -> {tensor([cols])}
      %b1 = "tile.reshape"(%bt) : ({tensor([cols])}) -> {row}
      %bb = "tile.broadcast"(%b1) : ({row}) -> {t}"""
    out = "%yw" if rms else "%y"
    return module_text(f"""    gpu.func @norm(%z: !tile.view_mut<f32, array<i64: {rows}, {cols}>>, %x: !tile.view<f32, array<i64: -1, -1>>, %w: {vec}, %b: {vec}, %eps: f32) kernel attributes {{tile.warps = {warps} : i32}} {{
      %bid = "tile.block_id"() {{axis = "x"}} : () -> i32
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: {rows}, {cols}>>
      %a = "tile.load"(%p, %bid, %c0) : (!tile.partition<f32, array<i64: {rows}, {cols}>>, i32, i32) -> {t}
      %n = "tile.dim"(%x) {{axis = 1 : i64}} : (!tile.view<f32, array<i64: -1, -1>>) -> i32
      %nf = arith.sitofp %n : i32 to f32
      %one = arith.constant 1.0 : f32
      %inv = arith.divf %one, %nf : f32
      %inv_n = "tile.splat"(%inv) : (f32) -> {v}
      %zero = arith.constant dense<0.0> : {t}
      %i = "tile.iota"() : () -> {tensor([cols], "i32")}
      %i1 = "tile.reshape"(%i) : ({tensor([cols], "i32")}) -> {tensor([1, cols], "i32")}
      %ib = "tile.broadcast"(%i1) : ({tensor([1, cols], "i32")}) -> {ti}
      %nt = "tile.splat"(%n) : (i32) -> {ti}
      %inside = arith.cmpi slt, %ib, %nt : {ti}
      %x0 = arith.select %inside, %a, %zero : {tb}, {t}
{mean}
      %sq = arith.mulf {centre}, {centre} : {t}
      %ss = "tile.reduce"(%sq) {{dim = 1 : i64, kind = "sum", unsigned = false}} : ({t}) -> {v}
      %var = arith.mulf %ss, %inv_n : {v}
      %epsv = "tile.splat"(%eps) : (f32) -> {v}
      %ve = arith.addf %var, %epsv : {v}
      %r = math.rsqrt %ve : {v}
      %r1 = "tile.reshape"(%r) : ({v}) -> {col}
      %rb = "tile.broadcast"(%r1) : ({col}) -> {t}
      %xn = arith.mulf {centre}, %rb : {t}
      %pw = "tile.make_partition"(%w) : ({vec}) -> !tile.partition<f32, array<i64: {cols}>>
      %wt = "tile.load"(%pw, %c0) : (!tile.partition<f32, array<i64: {cols}>>, i32) -> {tensor([cols])}
      %w1 = "tile.reshape"(%wt) : ({tensor([cols])}) -> {row}
      %wb = "tile.broadcast"(%w1) : ({row}) -> {t}
      %yw = arith.mulf %xn, %wb : {t}
{bias}
{"" if rms else f'      %y = arith.addf %yw, %bb : {t}'}
      "tile.store_own"(%z, {out}) : (!tile.view_mut<f32, array<i64: {rows}, {cols}>>, {t}) -> ()
      gpu.return
    }}""")


@pytest.mark.parametrize("rms", [False, True])
@pytest.mark.parametrize("m,n,rows,cols,warps", [(6, 1000, 2, 1024, 4), (5, 64, 4, 64, 1), (3, 300, 1, 512, 8),
                                                  (7, 3001, 4, 4096, 16)])
def test_layernorm_and_rmsnorm_forward(rms, m, n, rows, cols, warps):
    x = _data((m, n), np.float32)
    w, b = _data(n, np.float32), _data(n, np.float32)
    z = np.zeros((m, n), np.float32)
    run_tile(_norm_kernel(rows, cols, warps, rms), "norm", [-(-m // rows)],
             [*view(z), *view(x), *view(w), *view(b), np.float32(1e-5)], warps=warps)
    if rms:
        expected = x / np.sqrt((x * x).mean(1, keepdims=True) + 1e-5) * w
    else:
        centred = x - x.mean(1, keepdims=True)
        expected = centred / np.sqrt((centred * centred).mean(1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(z, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("elem,dtype", [("f16", np.float16), ("f64", np.float64), ("i64", np.int64),
                                        ("i16", np.int16), ("i8", np.int8)])
@pytest.mark.parametrize("kind", ["max", "sum"])
def test_reduce_and_scan_of_narrow_and_wide_types(elem, dtype, kind):
    # 16- and 8-bit values are shuffled as 32-bit words, 64-bit ones as two.
    shape = (4, 256)
    x = RNG.integers(-3, 4, shape).astype(dtype)
    text, out = _reduce(shape, 1, kind, elem)
    np.testing.assert_array_equal(run_unary(text, x, out), NUMPY_REDUCE[kind](x, axis=1).astype(dtype))
    body = (f'      %r = "tile.scan"(%a) {{dim = 1 : i64, kind = "{kind}", reverse = 0 : i64, unsigned = false}} : '
            f'({tensor(shape, elem)}) -> {tensor(shape, elem)}')
    ufunc = {"sum": np.add, "max": np.maximum}[kind]
    np.testing.assert_array_equal(run_unary(unary_kernel(shape, shape, body, elem), x, shape),
                                  ufunc.accumulate(x, axis=1).astype(dtype))


@pytest.mark.parametrize("kind", ["max", "min"])
def test_unsigned_reduce(kind):
    shape = (8, 64)
    body = (f'      %r = "tile.reduce"(%a) {{dim = 1 : i64, kind = "{kind}", unsigned = 1 : i64}} : '
            f'({tensor(shape, "i32")}) -> {tensor([8], "i32")}')
    x = RNG.integers(0, 2**32, shape, dtype=np.uint64).astype(np.uint32)
    z = run_unary(unary_kernel(shape, [8], body, "i32"), x.view(np.int32), [8])
    np.testing.assert_array_equal(z.view(np.uint32), NUMPY_REDUCE[kind](x, axis=1))


@pytest.mark.parametrize("n,pitch", [(1001, 1004), (1000, 1000), (997, 997)])
def test_ragged_rows_with_a_row_pitch(n, pitch):
    # Rows of n elements, `pitch` apart, in a 4x1024 tile: the groups of 4 wholly inside a row take vector
    # accesses when pitch keeps them aligned, the last partial group goes element by element; padding stays.
    m = 3
    text = unary_kernel([4, 1024], [4, 1024], '      %r = math.exp %a : tensor<4x1024xf32>')
    x = np.zeros((m, pitch), np.float32)
    x[:, :n] = _data((m, n), np.float32)
    z = np.full((m, pitch), 9.0, np.float32)
    abi = [np.int64(m), np.int64(n), np.int64(pitch), np.int64(1)]
    run_tile(text, "k", [1], [z.reshape(-1), *abi, x.reshape(-1), *abi])
    np.testing.assert_allclose(z[:, :n], np.exp(x[:, :n]), rtol=1e-6)
    assert (z[:, n:] == 9.0).all()


def test_a_kernel_loading_only_16_bit_tiles_uses_8_element_vectors():
    # x (f16) is loaded in 16-byte groups of 8; computing in f32 and storing f16 keeps that layout throughout.
    from tests.unit.passes.conversion.tile_to_simt.harness import lower

    shape = (4, 256)
    t16, t32, v32 = tensor(shape, "f16"), tensor(shape), tensor([4])
    body = f"""      %w = arith.extf %a : {t16} to {t32}
      %s = "tile.reduce"(%w) {{dim = 1 : i64, kind = "sum", unsigned = false}} : ({t32}) -> {v32}
      %s1 = "tile.reshape"(%s) : ({v32}) -> {tensor([4, 1])}
      %sb = "tile.broadcast"(%s1) : ({tensor([4, 1])}) -> {t32}
      %d = arith.subf %w, %sb : {t32}
      %r = arith.truncf %d : {t32} to {t16}"""
    text = unary_kernel(shape, shape, body, "f16")
    lowered = lower(text)
    assert "vector<8xf16>" in lowered and "simt.shared_array" not in lowered
    x = RNG.integers(-4, 5, shape).astype(np.float16)
    expected = (x.astype(np.float32) - x.astype(np.float32).sum(1, keepdims=True)).astype(np.float16)
    np.testing.assert_array_equal(run_unary(text, x, shape), expected)


def test_while_loop_carrying_a_transposed_tile():
    # The loop keeps the transpose's relabelled layout; squaring n times, then a coalesced store.
    t, s = tensor([64, 32]), tensor([32, 64])
    text = unary_kernel([32, 64], [64, 32], f"""      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %n = arith.constant 3 : i32
      %t = "tile.permute"(%a) {{perm = array<i64: 1, 0>}} : ({s}) -> {t}
      %w:2 = scf.while (%v = %t, %i = %c0) : ({t}, i32) -> ({t}, i32) {{
        %go = arith.cmpi slt, %i, %n : i32
        scf.condition(%go) %v, %i : {t}, i32
      }} do {{
      ^bb0(%u: {t}, %k: i32):
        %h = arith.mulf %u, %u : {t}
        %k1 = arith.addi %k, %c1 : i32
        scf.yield %h, %k1 : {t}, i32
      }}
      %r = arith.addf %w#0, %w#0 : {t}""")
    x = (np.abs(_data((32, 64), np.float32)) % 1.5).astype(np.float32)
    np.testing.assert_allclose(run_unary(text, x, (64, 32)), 2 * x.T ** 8, rtol=1e-5)
