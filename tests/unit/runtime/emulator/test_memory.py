"""Dynamic shared memory, raw pointers and thread-local arrays on the emulator; blocks run together in one
vector give the same results as one block at a time."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator import OutOfBounds, launch
from tests.unit.runtime.emulator.helpers import example, run

USE = "use cuda_device::{kernel, thread, DynamicSharedArray};\n"


def test_dynamic_shared_memory_through_a_pointer():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    let p: *mut f32 = DynamicSharedArray::<f32, 16>::get();
    let t = thread::threadIdx_x() as usize;
    let n = thread::blockDim_x() as usize;
    let base = thread::blockIdx_x() as usize * n;
    *p.add(t) = x[base + t];
    thread::sync_threads();
    out[base + t] = *p.add(n - 1 - t);
}"""
    x = np.random.default_rng(1).standard_normal(96).astype(np.float32)
    out = np.zeros(96, np.float32)
    run(src, (3,), (32,), [x, out], dynamic_shared=32 * 4)
    np.testing.assert_array_equal(out, x.reshape(3, 32)[:, ::-1].reshape(-1))


def test_pointer_past_dynamic_shared_memory_is_out_of_bounds():
    src = USE + """#[kernel]
pub unsafe fn k(v: f32) {
    let p: *mut f32 = DynamicSharedArray::<f32, 16>::get();
    *p.add(thread::threadIdx_x() as usize) = v;
}"""
    with pytest.raises(OutOfBounds, match=r"thread \(16, 0, 0\).*index 16 is out of bounds for dynamic shared memory "
                                          r"of length 16"):
        run(src, (1,), (32,), [np.float32(1)], dynamic_shared=64)


def test_local_arrays_per_thread():
    src = USE + """#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    let t = thread::threadIdx_x();
    let mut a = [0u32; 8];
    for i in 0..8 { a[i] = t * 10 + i as u32; }
    let j = (t % 8) as usize;
    out[t as usize] = a[j] + a[7 - j];
}"""
    out = np.zeros(50, np.uint32)
    run(src, (1,), (50,), [out])
    t = np.arange(50)
    np.testing.assert_array_equal(out, (t * 10 + t % 8) + (t * 10 + 7 - t % 8))


@pytest.mark.parametrize("blocks_per_batch", [1, 3])
def test_batches_of_blocks_match_the_default(blocks_per_batch):
    rng = np.random.default_rng(blocks_per_batch)
    rows, cols = 70, 100
    inp = rng.standard_normal((rows, cols)).astype(np.float32)
    out = np.zeros((cols, rows), np.float32)
    launch(example("transpose"), "transpose", ((cols + 31) // 32, (rows + 31) // 32), (32, 8), [inp, out, rows, cols],
           blocks_per_batch=blocks_per_batch, shuffle_blocks=blocks_per_batch)
    np.testing.assert_array_equal(out, inp.T)
    x = rng.standard_normal(32 * 20 + 5).astype(np.float32)
    sums = np.zeros(21, np.float32)
    launch(example("warp_reduce"), "warp_sum", (6,), (128,), [x, sums], blocks_per_batch=blocks_per_batch)
    reference = np.zeros(21, np.float32)
    launch(example("warp_reduce"), "warp_sum", (6,), (128,), [x, reference])
    np.testing.assert_array_equal(sums, reference)


VECTOR_KERNEL = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%s: !simt.slice<f32>, %d: !simt.slice_mut<f32>) kernel {
      %t = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %i = arith.index_castui %t : i32 to index
      %c2 = arith.constant 2 : index
      %odd = arith.remui %i, %c2 : index
      %c0 = arith.constant 0 : index
      %is_even = arith.cmpi eq, %odd, %c0 : index
      %v = "simt.vector_load"(%s, %i) : (!simt.slice<f32>, index) -> vector<4xf32>
      %r = scf.if %is_even -> vector<4xf32> {
        %two = arith.constant dense<2.0> : vector<4xf32>
        %x = arith.mulf %v, %two : vector<4xf32>
        scf.yield %x : vector<4xf32>
      } else {
        scf.yield %v : vector<4xf32>
      }
      "simt.vector_store"(%d, %i, %r) : (!simt.slice_mut<f32>, index, vector<4xf32>) -> ()
      gpu.return
    }
  }
}"""


def test_vectors_through_divergent_branches():
    from mlir import ir

    from oxide.backend.emulator import emit_program
    from oxide.ir.parse import parse_source
    from tests.unit.runtime.emulator.helpers import _context

    with _context(), ir.Location.unknown():
        program = emit_program(parse_source(VECTOR_KERNEL, "v.mlir", _context()).module)
    source, out = np.arange(20, dtype=np.float32), np.zeros(20, np.float32)
    launch(program, "k", (1,), (5,), [source, out])
    rows = source.reshape(5, 4)
    np.testing.assert_array_equal(out.reshape(5, 4), np.where((np.arange(5) % 2 == 0)[:, None], rows * 2, rows))
