"""Lock-step execution of divergent code and the GPU's integer and float semantics on the emulator."""

from __future__ import annotations

import numpy as np

from oxide.runtime.emulator import launch
from tests.unit.runtime.emulator.helpers import run

HEAD = "use cuda_device::{kernel, thread};\n#[kernel]\npub unsafe fn k"


def test_divergent_if_else_chains_and_values():
    src = HEAD + """(x: &[i32], out: &mut [i32]) {
    let t = thread::index_1d().get();
    if t >= x.len() { return; }
    let v = x[t];
    let r = if v % 3 == 0 { v * 2 } else if v % 3 == 1 { v - 100 } else { -v };
    if r > 0 { out[t] = r; } else { out[t] = r * 3; }
}"""
    x = np.random.default_rng(1).integers(-1000, 1000, 300).astype(np.int32)
    out = np.zeros(300, np.int32)
    run(src, (3,), (128,), [x, out])
    r = np.where(x % 3 == 0, x * 2, np.where(np.fmod(x, 3) == 1, x - 100, -x))
    np.testing.assert_array_equal(out, np.where(r > 0, r, r * 3))


def test_nested_loops_with_thread_dependent_trip_counts():
    src = HEAD + """(n: u32, out: &mut [u32]) {
    let t = thread::threadIdx_x();
    let mut acc = 0u32;
    for i in 0..t {
        let mut j = 0u32;
        while j < i % 5 {
            if (i + j) % 7 == 3 { j += 1; continue; }
            acc += i * j + 1;
            j += 1;
        }
        if acc > n { break; }
    }
    out[t as usize] = acc;
}"""
    out = np.zeros(70, np.uint32)
    run(src, (1,), (70,), [np.uint32(400), out])
    expected = []
    for t in range(70):
        acc = 0
        for i in range(t):
            for j in range(i % 5):
                if (i + j) % 7 != 3:
                    acc += i * j + 1
            if acc > 400:
                break
        expected.append(acc)
    np.testing.assert_array_equal(out, expected)


def test_integer_semantics_match_the_gpu():
    src = HEAD + """(a: &[i32], b: &[i32], out: &mut [i32]) {
    let t = thread::threadIdx_x() as usize;
    let x = a[t];
    let y = b[t];
    out[t * 8] = x.wrapping_mul(y);
    out[t * 8 + 1] = x / y;
    out[t * 8 + 2] = x % y;
    out[t * 8 + 3] = ((x as u32) / (y as u32)) as i32;
    out[t * 8 + 4] = x >> (y & 31);
    out[t * 8 + 5] = ((x as u32) >> ((y & 31) as u32)) as i32;
    out[t * 8 + 6] = (x as u8) as i32;
    out[t * 8 + 7] = (((x as f32) * 1.5) as i8) as i32;
}"""
    rng = np.random.default_rng(2)
    a = rng.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
    b = rng.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
    b[b == 0] = 7
    a[:4] = [-7, 7, -2**31, 100]
    b[:4] = [2, -2, 3, 3]
    out = np.zeros(64 * 8, np.int32)
    run(src, (1,), (64,), [a, b, out])
    got = out.reshape(64, 8).astype(np.int64)
    x, y = a.astype(np.int64), b.astype(np.int64)
    trunc_div = np.where((x < 0) != (y < 0), -(np.abs(x) // np.abs(y)), np.abs(x) // np.abs(y))
    wrap = lambda v: ((v + 2**31) % 2**32) - 2**31
    np.testing.assert_array_equal(got[:, 0], wrap(x * y))
    np.testing.assert_array_equal(got[:4, 1], [-3, -3, -715827882, 33])  # truncating, not flooring
    np.testing.assert_array_equal(got[4:, 1], wrap(trunc_div)[4:])
    np.testing.assert_array_equal(got[4:, 2], (x - trunc_div * y)[4:])
    np.testing.assert_array_equal(got[:, 3], wrap((x % 2**32) // (y % 2**32)))
    np.testing.assert_array_equal(got[:, 4], x >> (y & 31))
    np.testing.assert_array_equal(got[:, 5], wrap((x % 2**32) >> (y & 31)))
    np.testing.assert_array_equal(got[:, 6], x % 256)
    np.testing.assert_array_equal(got[:, 7], np.clip(np.trunc(x.astype(np.float32) * np.float32(1.5)), -128, 127))


def test_f32_accumulates_in_float32():
    src = HEAD + """(x: &[f32], out: &mut [f32]) {
    let mut acc = 0.0f32;
    for i in 0..x.len() { acc = acc + x[i] * 0.1; }
    out[thread::threadIdx_x() as usize] = acc;
}"""
    x = (np.random.default_rng(3).standard_normal(1000) * 1e4).astype(np.float32)
    out = np.zeros(2, np.float32)
    run(src, (1,), (2,), [x, out])
    acc = np.float32(0)
    for v in x:
        acc = np.float32(acc + np.float32(v * np.float32(0.1)))
    assert out[0] == acc and out[1] == acc
    assert out[0] != np.float32(np.sum(x.astype(np.float64) * np.float32(0.1)))  # float64 would differ


def test_blocks_run_together_or_shuffled_give_the_same_result():
    src = HEAD + """(x: &[f32], out: &mut [f32]) {
    let i = thread::index_1d().get();
    if i < x.len() { out[i] = x[i] * x[i] + 1.0; }
}"""
    x = np.random.default_rng(4).standard_normal(5000).astype(np.float32)
    plain, shuffled = np.zeros(5000, np.float32), np.zeros(5000, np.float32)
    run(src, (40,), (128,), [x, plain])
    run(src, (40,), (128,), [x, shuffled], shuffle_blocks=7)
    wide = x.astype(np.float64)
    np.testing.assert_array_equal(plain, (wide * wide + 1).astype(np.float32))  # contracted to one fma
    np.testing.assert_array_equal(shuffled, plain)


SWAPPING_LOOPS = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%o: !simt.slice_mut<i32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %a0 = arith.constant 1 : i32
      %b0 = arith.constant 2 : i32
      %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %a0, %b = %b0) -> (i32, i32) {
        %s = arith.addi %a, %b : i32
        scf.yield %b, %s : i32, i32
      }
      %w:2 = scf.while (%x = %a0, %y = %b0) : (i32, i32) -> (i32, i32) {
        %c10 = arith.constant 10 : i32
        %go = arith.cmpi slt, %x, %c10 : i32
        scf.condition(%go) %x, %y : i32, i32
      } do {
      ^bb0(%x: i32, %y: i32):
        %n = arith.addi %x, %y : i32
        scf.yield %y, %n : i32, i32
      }
      "simt.store"(%o, %c0, %r#0) : (!simt.slice_mut<i32>, index, i32) -> ()
      "simt.store"(%o, %c1, %r#1) : (!simt.slice_mut<i32>, index, i32) -> ()
      %c2 = arith.constant 2 : index
      "simt.store"(%o, %c2, %w#0) : (!simt.slice_mut<i32>, index, i32) -> ()
      "simt.store"(%o, %c3, %w#1) : (!simt.slice_mut<i32>, index, i32) -> ()
      gpu.return
    }
  }
}"""


def test_loop_carried_values_are_assigned_in_parallel():
    # Each iteration yields (b, a + b): a yield that names another carried value sees its old value.
    from mlir import ir

    from oxide.backend.emulator import emit_program
    from oxide.ir.parse import parse_source
    from tests.unit.runtime.emulator.helpers import _context

    with _context(), ir.Location.unknown():
        program = emit_program(parse_source(SWAPPING_LOOPS, "f.mlir", _context()).module)
    out = np.zeros(4, np.int32)
    launch(program, "k", (1,), (1,), [out])
    np.testing.assert_array_equal(out, [5, 8, 13, 21])  # Fibonacci: 3 for-iterations, while until x >= 10
