"""Per-construct tests of the Rust frontend's supported subset: each compiles a small kernel and checks the
simt IR it emits (or, through the reference interpreter in simt_interp.py, what that IR computes; or the PTX
where the backend's output is the point)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

import oxide
from oxide.frontends.simt.compile import compile_rust
from oxide.dialects.context import make_context
from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.simt_interp import Trap, run_kernel, to_signed

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "rust"


@lru_cache(maxsize=1)
def _context():
    return make_context()


def build(src: str, instances=None):
    """The frontend result of `src`."""
    return compile_rust(src, "k.rs", _context(), instances)


def ir(src: str, instances=None) -> str:
    return str(build(src, instances).module)


def kernel(params: str, body: str, extra: str = "") -> str:
    """A safe kernel `k(params)` with `body`, followed by `extra` items."""
    return f"#[kernel]\npub fn k({params}) {{\n{body}\n}}\n{extra}"


def run(params: str, body: str, args: list, extra: str = "", ty: str = "u32", n: int = 8) -> list:
    """Run an unsafe kernel `k(params, out: &mut [ty])` on `args` and return `out` (n elements, zeroed)."""
    src = f"#[kernel]\npub unsafe fn k({params}out: &mut [{ty}]) {{\n{body}\n}}\n{extra}"
    out = [0.0 if ty.startswith("f") else 0] * n
    run_kernel(build(src), args + [out])
    return out


# Loops ------------------------------------------------------------------------------------------------------
def test_for_over_range_is_scf_for():
    text = ir(kernel("x: &[f32], n: usize", "let mut acc = 0.0f32;\nfor i in 0..n { acc += x[i]; }"))
    assert "scf.for" in text and "scf.while" not in text
    assert "memref<f32>" in text  # the `let mut` accumulator


def test_for_over_range_sums():
    assert run("n: u32, ", "let mut s = 0u32;\nfor i in 0..n { s += i; }\nout[0] = s;", [5])[0] == 10


def test_for_inclusive_range_and_step_by():
    body = ("let mut c = 0u32;\nfor i in (0..n).step_by(3) { c += i; }\nout[0] = c;\n"
            "let mut d = 0u32;\nfor i in 1..=n { d += i; }\nout[1] = d;")
    assert run("n: u32, ", body, [10])[:2] == [0 + 3 + 6 + 9, 55]


def test_step_by_zero_traps():
    assert "simt.trap" in ir(kernel("n: usize", "for i in (0..n).step_by(n) { }"))


def test_while_is_scf_while():
    text = ir(kernel("n: u32", "let mut i = 0u32;\nwhile i < n { i += 1; }"))
    assert "scf.while" in text and "scf.condition" in text


def test_while_runs_until_condition_fails():
    assert run("n: u32, ", "let mut i = 1u32;\nwhile i < n { i *= 2; }\nout[0] = i;", [100])[0] == 128


def test_continue_skips_the_rest_of_the_iteration():
    body = ("let mut s = 0u32;\nlet mut i = 0u32;\n"
            "while i < n { i += 1; if i == 3 { continue; } s += i; }\nout[0] = s;")
    assert run("n: u32, ", body, [5])[0] == 1 + 2 + 4 + 5


def test_loop_with_break():
    body = "let mut i = 0u32;\nloop { i += 1; if i >= n { break; } }\nout[0] = i;"
    assert run("n: u32, ", body, [5])[0] == 5


def test_break_leaves_only_the_inner_loop():
    body = ("let mut total = 0u32;\nfor i in 0..n {\n for j in 0..n { if j == 2 { break; } total += 1; }\n}\n"
            "out[0] = total;")
    assert run("n: u32, ", body, [5])[0] == 10


def test_labelled_break_and_continue():
    body = ("let mut c = 0u32;\n'outer: for i in 0..n {\n for j in 0..n {\n"
            "  if j > i { continue 'outer; }\n  if i == 3 { break 'outer; }\n  c += 1;\n }\n}\nout[0] = c;")
    assert run("n: u32, ", body, [5])[0] == 1 + 2 + 3


def test_labelled_loops_use_flags_in_scf_while():
    text = ir(kernel("n: u32", "'outer: for i in 0..n { for j in 0..n { if j > i { continue 'outer; } } }"))
    assert text.count("scf.while") == 2 and "memref<i8>" in text


def test_early_return_from_kernel():
    assert run("n: u32, ", "out[0] = 1;\nif n > 3 { return; }\nout[1] = 2;", [5])[:2] == [1, 0]
    assert run("n: u32, ", "out[0] = 1;\nif n > 3 { return; }\nout[1] = 2;", [2])[:2] == [1, 2]


def test_return_inside_a_loop():
    body = "for i in 0..n {\n out[i as usize] = i + 10;\n if i == 2 { return; }\n}\nout[7] = 99;"
    assert run("n: u32, ", body, [5]) == [10, 11, 12, 0, 0, 0, 0, 0]


def test_early_return_from_helper():
    extra = "fn pick(x: u32) -> u32 {\n    if x > 3 { return 100; }\n    x + 1\n}\n"
    assert run("n: u32, ", "out[0] = pick(n);\nout[1] = pick(1);", [5], extra)[:2] == [100, 2]


def test_return_from_loop_in_helper():
    extra = "fn find(n: u32) -> u32 {\n    for i in 0..n { if i * i > 5 { return i; } }\n    0\n}\n"
    assert run("n: u32, ", "out[0] = find(n);\nout[1] = find(1);", [5], extra)[:2] == [3, 0]


# Conditionals and patterns ----------------------------------------------------------------------------------
def test_if_without_else_is_scf_if():
    text = ir(kernel("n: u32", "let mut x = 0u32;\nif n > 3 { x = 1; }"))
    assert re.search(r"scf\.if %\w+ \{", text)


def test_if_else_as_an_expression():
    body = "let v: u32 = if n > 3 { 7 } else { 9 };\nout[0] = v;\nout[1] = if n > 10 { 1 } else if n > 4 { 2 } else { 3 };"
    assert run("n: u32, ", body, [5])[:2] == [7, 2]
    assert run("n: u32, ", body, [1])[:2] == [9, 3]


def test_if_else_literal_takes_the_other_branch_type():
    assert run("n: u32, ", "let v = if n > 3 { 7u32 } else { 9 };\nout[0] = v;", [5])[0] == 7


def test_if_let_some():
    body = ("let a: Option<u32> = if n > 3 { Some(n) } else { None };\n"
            "if let Some(x) = a { out[0] = x * 2; } else { out[0] = 1; }")
    assert run("n: u32, ", body, [5])[0] == 10
    assert run("n: u32, ", body, [2])[0] == 1


def test_match_on_integers_with_alternatives_ranges_and_guards():
    body = ("for i in 0..8u32 {\n out[i as usize] = match i {\n  0 | 1 => 10,\n  2..=4 => 20,\n"
            "  x if x % 2 == 1 => 30,\n  _ => 40,\n };\n}")
    assert run("", body, []) == [10, 10, 20, 20, 20, 30, 40, 30]


def test_match_on_option_and_option_methods():
    body = ("let a: Option<u32> = if n > 3 { Some(n) } else { None };\n"
            "out[0] = match a { Some(v) => v + 1, None => 0 };\n"
            "let b: Option<u32> = None;\nout[1] = match b { Some(v) => v, None => 77 };\n"
            "out[2] = a.unwrap_or(5);\nout[3] = b.unwrap_or(6);\nout[4] = a.is_some() as u32;")
    assert run("n: u32, ", body, [5])[:5] == [6, 77, 5, 6, 1]


def test_unwrap_of_none_traps():
    with pytest.raises(Trap):
        run("n: u32, ", "let a: Option<u32> = None;\nout[0] = a.unwrap();", [1])


_ENUM = "#[derive(Clone, Copy)]\nenum Mode { A, B, C = 7 }\n"


def test_match_on_fieldless_enum():
    body = ("let m = Mode::B;\nout[0] = match m { Mode::A => 1, Mode::B => 2, Mode::C => 3 };\n"
            "out[1] = Mode::C as u32;\nout[2] = (m == Mode::A) as u32;\nout[3] = match Mode::A { Mode::A => 4, _ => 5 };")
    assert run("", body, [], _ENUM)[:4] == [2, 7, 0, 4]


def test_block_tail_may_be_a_path():
    body = "let m = if n > 3 { Mode::B } else { Mode::C };\nout[0] = m as u32;"
    assert run("n: u32, ", body, [1], _ENUM)[0] == 7


def test_block_and_unsafe_block_values():
    body = "let v = { let t = n * 2; t + 1 };\nout[0] = v;\nlet w = unsafe { n + 3 };\nout[1] = w;"
    assert run("n: u32, ", body, [5])[:2] == [11, 8]


# Tuples and arrays ------------------------------------------------------------------------------------------
def test_tuples_and_tuple_patterns():
    body = ("let t = (n, n + 1);\nlet (a, b) = t;\nout[0] = a + b;\nout[1] = t.1;\n"
            "let mut m = (1u32, 2u32);\nm.0 = 9;\nout[2] = m.0 + m.1;")
    assert run("n: u32, ", body, [5])[:3] == [11, 6, 11]


def test_wildcard_inside_tuple_pattern():
    assert run("n: u32, ", "let (_, z) = (n, n + 1);\nout[0] = z;", [5])[0] == 6


def test_tuple_returned_from_helper():
    extra = "fn divmod(a: u32, b: u32) -> (u32, u32) { (a / b, a % b) }\n"
    assert run("n: u32, ", "let (q, r) = divmod(n, 3);\nout[0] = q;\nout[1] = r;", [5], extra)[:2] == [1, 2]


def test_array_repeat_literal_and_indexing():
    text = ir(kernel("n: u32", "let mut a = [0.0f32; 4];\na[1] = 2.0;\nlet v = a[n as usize];"))
    assert "memref.alloca() : memref<4xf32>" in text
    assert "simt.trap" in text  # the index is bounds-checked
    body = "let mut a = [0u32; 4];\nfor i in 0..4usize { a[i] = i as u32 * n; }\nout[0] = a[3];"
    assert run("n: u32, ", body, [5])[0] == 15


def test_array_index_out_of_bounds_traps():
    with pytest.raises(Trap):
        run("n: u32, ", "let a = [1u32, 2u32, 3u32, 4u32];\nout[0] = a[n as usize];", [4])


def test_array_literal_elements_take_the_suffixed_type():
    assert run("", "let b = [1u32, 2, 3];\nout[0] = b[0] + b[2];", [])[0] == 4


def test_unsuffixed_range_variable_used_as_index():
    assert run("", "let a = [5u32; 4];\nlet mut s = 0u32;\nfor i in 0..4 { s += a[i]; }\nout[0] = s;", [])[0] == 20


# Casts ------------------------------------------------------------------------------------------------------
def test_int_widening_follows_source_signedness():
    text = ir(kernel("n: i32, u: u32", "let c = n as i64;\nlet d = u as u64;\nlet e = n as u64;"))
    assert "arith.extsi %arg0 : i32 to i64" in text
    assert "arith.extui %arg1 : i32 to i64" in text
    assert text.count("arith.extsi") == 2  # i32 -> u64 extends by the source's sign


def test_int_narrowing_truncates():
    text = ir(kernel("n: i64", "let e = n as i16;\nlet f = n as u8;"))
    assert "arith.trunci %arg0 : i64 to i16" in text and "arith.trunci %arg0 : i64 to i8" in text


def test_int_to_float_uses_sitofp_or_uitofp():
    text = ir(kernel("n: i32, u: u32", "let a = n as f32;\nlet b = u as f64;"))
    assert "arith.sitofp %arg0 : i32 to f32" in text and "arith.uitofp %arg1 : i32 to f64" in text


def test_float_widening_and_narrowing():
    text = ir(kernel("x: f32, y: f64", "let a = x as f64;\nlet b = y as f32;"))
    assert "arith.extf %arg0 : f32 to f64" in text and "arith.truncf %arg1 : f64 to f32" in text


def test_integer_cast_values():
    body = ("let a = -7i32;\nout[0] = (a as u8) as u32;\nout[1] = (a as i64 as u64 >> 32) as u32;\n"
            "out[2] = -1i8 as u8 as u32;\nout[3] = (200u8 as i8 as i32) as u32;\nout[4] = true as u32;")
    assert run("", body, [])[:5] == [249, 0xFFFFFFFF, 255, (-56) & 0xFFFFFFFF, 1]


def test_float_to_int_saturates():
    text = ir(kernel("x: f32", "let a = x as u32;\nlet b = x as i8;"))
    assert "arith.minimumf" in text and "arith.select" in text
    body = ("out[0] = 3.99f32 as u32;\nout[1] = (-1.5f32) as u32;\nout[2] = 1e20f32 as u32;\n"
            "out[3] = f32::NAN as u32;\nout[4] = (-3.7f32 as i32) as u32;")
    assert run("", body, [])[:5] == [3, 0, 0xFFFFFFFF, 0, (-3) & 0xFFFFFFFF]


# Arithmetic -------------------------------------------------------------------------------------------------
def test_integer_arithmetic_wraps_without_checks():
    text = ir(kernel("a: u32, b: u32", "let c = a + b;\nlet d = a * b;\nlet e = a - b;"))
    assert "simt.trap" not in text and "scf.if" not in text
    body = "let a = 0xffffffffu32;\nout[0] = a + n;\nout[1] = a.wrapping_add(2);\nout[2] = 0u32.wrapping_sub(1);"
    assert run("n: u32, ", body, [5])[:3] == [4, 1, 0xFFFFFFFF]


def test_division_by_zero_is_a_trap_under_scf_if():
    text = ir(kernel("a: u32, b: u32", "let c = a / b;"))
    assert re.search(r"arith\.cmpi ne, %arg1, %c0_i32.*?scf\.if %\w+ \{\s*\"simt\.trap\"\(\)", text, re.S)
    assert text.index("simt.trap") < text.index("arith.divui")
    with pytest.raises(Trap):
        run("n: u32, ", "out[0] = 10 / n;", [0])
    with pytest.raises(Trap):
        run("n: u32, ", "out[0] = 10 % n;", [0])


def test_signed_division_overflow_traps():
    with pytest.raises(Trap):
        run("n: i32, ", "out[0] = (i32::MIN / n) as u32;", [-1])
    assert to_signed(run("n: i32, ", "out[0] = (-7 / n) as u32;\nout[1] = (-7 % n) as u32;", [2])[:2]) == [-3, -1]


def test_shift_amounts_are_masked():
    text = ir(kernel("a: u32, s: u32", "let b = a << s;"))
    assert "arith.constant 31 : i32" in text and "arith.andi %arg1" in text
    assert run("n: u32, ", "out[0] = 1u32 << n;\nout[1] = 0x80000000u32 >> n;", [33])[:2] == [2, 0x40000000]


def test_signed_shift_right_is_arithmetic():
    assert "arith.shrsi" in ir(kernel("a: i32", "let b = a >> 1;"))
    assert "arith.shrui" in ir(kernel("a: u32", "let b = a >> 1;"))


def test_short_circuit_operators_are_scf_if():
    text = ir(kernel("a: bool, b: bool", "let c = a && b;\nlet d = a || b;"))
    assert text.count("scf.if") == 2 and "-> (i1)" in text
    body = "let mut c = 0u32;\nlet d = 0u32;\nif n > 10 && 10 / d > 0 { c = 1; }\nif n > 1 || 10 / d > 0 { c += 2; }\nout[0] = c;"
    assert run("n: u32, ", body, [5])[0] == 2  # the right operands (division by zero) never run


def test_compound_assignment():
    body = "let mut x = n;\nx += 3; x -= 1; x *= 4; x /= 2; x %= 5; x <<= 2; x >>= 1; x |= 1; x &= 0xff; x ^= 2;\nout[0] = x;"
    assert run("n: u32, ", body, [5])[0] == 11


def test_compound_assignment_on_slice_element():
    assert run("n: u32, ", "out[2] = 4;\nout[2] += n;\nout[2] *= 2;", [3])[2] == 14


def test_unary_operators():
    body = "let a = 5i32;\nout[0] = (-a) as u32;\nout[1] = !n;\nout[2] = (!(n > 3)) as u32;"
    assert run("n: u32, ", body, [5])[:3] == [(-5) & 0xFFFFFFFF, ~5 & 0xFFFFFFFF, 0]
    assert "arith.negf" in ir(kernel("x: f32", "let y = -x;"))


# Methods on primitives --------------------------------------------------------------------------------------
def test_sqrt_f32_uses_libdevice_and_f64_uses_math_sqrt():
    text = ir(kernel("x: f32, y: f64", "let a = x.sqrt();\nlet b = y.sqrt();"))
    assert re.search(r'"simt\.libdevice"\(%arg0\) \{fn = "sqrt"\}', text)
    assert "math.sqrt %arg1 : f64" in text


def test_mul_add_is_math_fma():
    assert "math.fma %arg0, %arg1, %arg2 : f32" in ir(kernel("a: f32, b: f32, c: f32", "let d = a.mul_add(b, c);"))
    assert run("x: f32, ", "out[0] = x.mul_add(3.0, 1.0);", [2.0], ty="f32")[0] == 7.0


def test_powi_and_float_math():
    text = ir(kernel("x: f32, n: i32", "let a = x.powi(n);\nlet b = x.abs();\nlet c = x.exp();\nlet d = x.floor();"))
    for op in ("math.fpowi", "math.absf", "math.exp", "math.floor"):
        assert op in text


def test_integer_methods():
    body = ("out[0] = n.min(3);\nout[1] = n.max(9);\nout[2] = (-4i32).abs() as u32;\nout[3] = 0xf0u32.count_ones();\n"
            "out[4] = n.clamp(1, 3);\nout[5] = 3u32.pow(4);\nout[6] = (-5i32).clamp(-2, 2) as u32;\n"
            "out[7] = n.wrapping_mul(0x80000000);")
    assert run("n: u32, ", body, [5]) == [3, 9, 4, 4, 3, 81, (-2) & 0xFFFFFFFF, 0x80000000]
    text = ir(kernel("n: u32, m: i32", "let a = n.count_ones();\nlet b = n.min(3);\nlet c = m.max(1);"))
    assert "llvm.intr.ctpop" in text and "arith.minui" in text and "arith.maxsi" in text


def test_float_min_max_ignore_nan():
    body = "out[0] = x.min(1.0);\nout[1] = x.max(f32::NAN);"
    assert run("x: f32, ", body, [2.0], ty="f32")[:2] == [1.0, 2.0]


def test_float_comparisons_and_clamp():
    text = ir(kernel("x: f32", "let b = x < 1.0;\nlet c = x.is_nan();"))
    assert "arith.cmpf olt" in text and "arith.cmpf uno" in text
    body = "out[0] = (x < 3.0) as u32 as f32;\nout[1] = x.clamp(0.0, 1.5);"
    assert run("x: f32, ", body, [2.0], ty="f32")[:2] == [1.0, 1.5]
    assert "arith.minnumf" in ir(kernel("x: f32", "let y = x.min(1.0);"))


def test_primitive_constants_and_const_items():
    body = "out[0] = SCALE * n;\nout[1] = u32::MAX;\nout[2] = i32::MIN as u32;\nout[3] = u8::MAX as u32;"
    assert run("n: u32, ", body, [5], "const SCALE: u32 = 3;\n")[:4] == [15, 0xFFFFFFFF, 0x80000000, 255]


# The device API ---------------------------------------------------------------------------------------------
def test_index_1d_and_get_mut():
    text = ir(kernel("a: &[f32], mut c: DisjointSlice<f32>",
                     "let idx = thread::index_1d();\nlet i = idx.get();\nif let Some(e) = c.get_mut(idx) { *e = a[i]; }"))
    for op in ('"simt.index_1d"', '"simt.index_value"', '"simt.get_mut"', '"simt.ref_store"', '"simt.load"'):
        assert op in text


def test_index_2d_with_const_stride():
    text = ir(kernel("mut c: DisjointSlice<f32, Index2D<16>>",
                     "if let Some(idx) = thread::index_2d::<16>() {\n if let Some(o) = c.get_mut(idx) { *o = 1.0; }\n}"))
    assert '!simt.thread_index<"2d:16">' in text and '"simt.index_valid"' in text
    assert '!simt.disjoint<f32, "2d:16">' in text


def test_thread_and_block_registers():
    text = ir(kernel("", "let t = thread::threadIdx_x();\nlet b = thread::blockIdx_y();\nlet d = thread::blockDim_z();"))
    assert re.search(r'"simt\.thread_id"\(\) \{dim = #simt<dim x>\}|"simt\.thread_id"\(\).*x', text)
    assert '"simt.block_id"' in text and '"simt.block_dim"' in text


def test_sync_threads_and_warp_shuffle():
    text = ir(kernel("x: f32, n: u32", "thread::sync_threads();\nlet v = warp::shuffle_xor_f32(x, 1);\nlet w = warp::shuffle_xor(n, 2);"))
    assert '"simt.sync_threads"' in text
    assert text.count('"simt.shuffle"') == 2 and 'kind = "xor"' in text


def test_atomic_fetch_add_on_device_atomics():
    text = ir(kernel("bins: &[DeviceAtomicU32]", "let old = bins[0].fetch_add(1, AtomicOrdering::Relaxed);"))
    assert '"simt.atomic_rmw"' in text and 'kind = "add"' in text and 'scope = "device"' in text
    assert 'ordering = "relaxed"' in text


def test_shared_array_in_unsafe_kernel():
    src = ("#[kernel]\npub unsafe fn k(x: &[f32], out: &mut [f32]) {\n"
           "    static mut TILE: SharedArray<f32, 128> = SharedArray::UNINIT;\n"
           "    let t = thread::threadIdx_x() as usize;\n    TILE[t] = x[t];\n    thread::sync_threads();\n"
           "    out[t] = TILE[127 - t];\n}\n")
    text = ir(src)
    assert "!simt.shared<f32, 128" in text
    assert '"simt.shared_store"' in text and '"simt.shared_load"' in text


def test_shared_array_in_unsafe_block():
    text = ir(kernel("x: &[f32]", "static mut TILE: SharedArray<f32, 64> = SharedArray::UNINIT;\n"
                                  "let t = thread::threadIdx_x() as usize;\nunsafe { TILE[t] = x[t]; }"))
    assert '"simt.shared_store"' in text


def test_dynamic_shared_array_get():
    text = ir(kernel("x: f32", "let p = unsafe { DynamicSharedArray::<f32, 16>::get() };"))
    assert '"simt.dynamic_shared"' in text


# Generics, structs, helpers ---------------------------------------------------------------------------------
_SCALE = ("#[kernel]\npub fn scale<T: Copy + core::ops::Mul<Output = T>>(x: &[T], f: T, mut out: DisjointSlice<T>) {\n"
          "    let idx = thread::index_1d();\n    let i = idx.get();\n"
          "    if let Some(o) = out.get_mut(idx) { *o = x[i] * f; }\n}\n"
          "#[kernel]\npub fn tile<const N: usize>(x: &[f32], mut out: DisjointSlice<f32>) {\n"
          "    let idx = thread::index_1d();\n    let i = idx.get() % N;\n"
          "    if let Some(o) = out.get_mut(idx) { *o = x[i]; }\n}\n")


def test_generic_kernels_are_instantiated_with_entry_names():
    result = build(_SCALE, {"scale": [["f32"], ["f64"]], "tile": [["64"]]})
    assert [k.entry for k in result.kernels] == ["scale_f32", "scale_f64", "tile_64"]
    text = str(result.module)
    assert "gpu.func @scale_f64(%arg0: !simt.slice<f64>, %arg1: f64" in text
    assert "arith.constant 64 : i64" in text


def test_generic_kernel_without_instances_is_skipped():
    result = build(_SCALE + "#[kernel]\npub fn plain(x: &[f32]) {}\n")
    assert [k.entry for k in result.kernels] == ["plain"]
    assert result.skipped_generic == ["scale", "tile"]


def test_generic_and_const_generic_helpers():
    extra = ("fn twice<T: Copy + core::ops::Add<Output = T>>(x: T) -> T { x + x }\n"
             "fn times<const N: usize>(x: u32) -> u32 { x * N as u32 }\n")
    assert run("n: u32, ", "out[0] = twice(n);\nout[1] = twice(3u64) as u32;\nout[2] = times::<4>(n);", [5], extra)[:3] == [10, 6, 20]


_VEC2 = ("#[derive(Clone, Copy)]\nstruct Vec2 { x: f32, y: f32 }\nimpl Vec2 {\n"
         "    fn new(x: f32, y: f32) -> Self { Vec2 { x, y } }\n"
         "    fn add(self, o: Vec2) -> Vec2 { Vec2::new(self.x + o.x, self.y + o.y) }\n"
         "    fn dot(&self, o: Vec2) -> f32 { self.x * o.x + self.y * o.y }\n}\n")


def test_copy_struct_methods_and_associated_functions():
    body = ("let v = Vec2::new(n, 2.0);\nlet w = v.add(Vec2 { x: 1.0, y: 1.0 });\nout[0] = w.dot(w);\n"
            "let mut p = Vec2::new(0.0, 0.0);\np.x = 3.0;\nout[1] = p.x + p.y;")
    assert run("n: f32, ", body, [5.0], _VEC2, ty="f32")[:2] == [45.0, 3.0]


def test_struct_kernel_parameter_is_flattened():
    result = build(kernel("v: Vec2, s: f32", "let l = v.dot(v) * s;", _VEC2))
    (info,) = result.kernels
    assert info.params[0].mlir_types == ["f32", "f32"] and info.params[0].rust_type == "Vec2"
    assert "gpu.func @k(%arg0: f32, %arg1: f32, %arg2: f32)" in str(result.module)


def test_helper_functions_are_inlined():
    extra = "#[device]\nfn sq(x: f32) -> f32 { x * x }\nfn cube(x: f32) -> f32 { sq(x) * x }\n"
    text = ir(kernel("x: f32", "let y = cube(x);", extra))
    assert text.count("gpu.func") == 1 and "call" not in text and text.count("arith.mulf") == 2


def test_unsuffixed_float_literal_takes_the_slice_element_type():
    text = ir(kernel("x: &[f32], n: usize", "let mut acc = 0.0;\nfor i in 0..n { acc += x[i]; }"))
    assert "memref<f32>" in text and "arith.addf" in text and "f64" not in text


def test_unsuffixed_integer_literal_takes_its_later_type():
    text = ir(kernel("n: u64", "let mut k = 0;\nwhile k < n { k += 1; }"))
    assert "memref<i64>" in text and "arith.cmpi ult" in text
    assert run("n: u32, ", "let mut k = 0;\nwhile k < 10 { k += n; }\nout[0] = k;", [4])[0] == 12


# Macros -----------------------------------------------------------------------------------------------------
def test_gpu_printf_translates_placeholders():
    text = ir(kernel("x: f32, n: u32", 'gpu_printf!("x={} n={:#x} {:.2}\\n", x, n, x);'))
    assert 'format = "x=%g n=0x%x %.2f\\0A"' in text and 'order = "did"' in text
    assert "arith.extf %arg0 : f32 to f64" in text  # C varargs promotion


def test_assert_with_message_and_panic_and_debug_assert():
    text = ir(kernel("n: u32", 'debug_assert!(n > 0);\nassert!(n < 100, "too big");\nif n == 7 { panic!("seven"); }'))
    assert '"simt.assert"' in text and 'message = "too big"' in text
    assert '"simt.trap"' in text
    assert "arith.cmpi ugt" not in text  # debug_assert! emits nothing


def test_debug_assert_emits_no_code():
    assert ir(kernel("n: u32", "debug_assert!(n > 0);\ndebug_assert_eq!(n, 1);")).count("\n") == \
        ir(kernel("n: u32", "")).count("\n")


# Attributes and items ---------------------------------------------------------------------------------------
_COPY = "let idx = thread::index_1d();\nlet i = idx.get();\nif let Some(o) = out.get_mut(idx) { *o = x[i]; }"


def test_unchecked_indexing_loads_without_bounds_check():
    unchecked = ir("#[kernel(unchecked_indexing)]\npub fn k(x: &[f32], mut out: DisjointSlice<f32>) {\n" + _COPY + "\n}\n")
    assert '"simt.load_unchecked"' in unchecked and '"simt.load"' not in unchecked
    checked = ir(kernel("x: &[f32], mut out: DisjointSlice<f32>", _COPY))
    assert '"simt.load"' in checked and "load_unchecked" not in checked


def test_launch_bounds_and_contract_attributes():
    src = ("#[kernel]\n#[launch_bounds(256, 2)]\n#[launch_contract(domain = 1, block = (256, 1, 1))]\n"
           "pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {\n" + _COPY + "\n}\n")
    result = build(src)
    text = str(result.module)
    assert "simt.launch_bounds = array<i32: 256, 2>" in text
    assert "simt.contract = {block = array<i32: 256, 1, 1>, domain = 1 : i64}" in text
    (info,) = result.kernels
    assert info.launch_bounds == [256, 2] and info.contract == {"domain": 1, "block": [256, 1, 1]}


def test_launch_bounds_reach_the_ptx():
    src = ("#[kernel]\n#[launch_bounds(256, 2)]\n#[launch_contract(domain = 1, block = (256, 1, 1))]\n"
           "pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {\n" + _COPY + "\n}\n")
    ptx = oxide.compile(src, name="k.rs").ptx["sm_90"]
    # ptxas rejects .maxntid next to .reqntid: the contract's exact block shape replaces the bound.
    assert ".maxntid" not in ptx and ".minnctapersm 2" in ptx and ".reqntid 256, 1, 1" in ptx


def test_math_reaches_the_ptx():
    src = kernel("x: &[f32], mut out: DisjointSlice<f32>",
                 "let idx = thread::index_1d();\nlet i = idx.get();\n"
                 "if let Some(o) = out.get_mut(idx) { *o = x[i].sqrt() + x[i].mul_add(2.0, 1.0); }")
    ptx = oxide.compile(src, name="k.rs").ptx["sm_90"]
    assert "sqrt.rn.f32" in ptx and "fma.rn.f32" in ptx


def test_host_code_and_use_lines_are_skipped():
    src = ("use std::vec::Vec;\nuse cuda_device::{kernel, thread, DisjointSlice};\n"
           + kernel("x: &[f32]", "let v = x[0];")
           + "fn main() {\n    let v: Vec<f32> = vec![1.0; 10];\n    println!(\"{}\", v.len());\n}\n")
    assert [k.entry for k in build(src).kernels] == ["k"]


def test_cuda_module_wrapper():
    src = ("use cuda_device::prelude::*;\n#[cuda_module]\nmod kernels {\n    use super::*;\n"
           "    #[kernel]\n    pub fn inner(x: &[f32], mut out: DisjointSlice<f32>) {\n" + _COPY + "\n    }\n}\n")
    result = build(src)
    assert [k.entry for k in result.kernels] == ["inner"]
    assert "gpu.func @inner" in str(result.module)


def test_ops_carry_source_locations():
    result = build(kernel("x: &[f32]", "let v = x[3];"))
    text = result.module.operation.get_asm(enable_debug_info=True)
    assert re.search(r'"simt\.load".*loc\(#loc\d+\)', text)
    assert '"k.rs":3:9' in text  # the `x[3]` expression


def test_diagnostics_are_oxide_errors_not_python_exceptions():
    with pytest.raises(OxideError) as info:
        build(kernel("x: &[f32]", "let v = x[3] + y;"))
    assert info.value.diagnostics[0].loc.line == 3


_EXAMPLE_INSTANCES = {"scale_generic.rs": {"scale": [["f32"]]}, "sgemm_naive.rs": {"sgemm_naive": [["64"]]},
                      "sgemm_tiled.rs": {"sgemm_tiled": [["64"]]}}


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.rs")), ids=lambda p: p.stem)
def test_examples_compile(path: Path):
    result = build(path.read_text(), _EXAMPLE_INSTANCES.get(path.name))
    assert result.kernels and not result.skipped_generic


# Constructs the yardstick asked for -------------------------------------------------------------------------
def test_let_chain_binds_in_order_and_short_circuits():
    body = ("let a: Option<u32> = if n > 2 { Some(n) } else { None };\n"
            "if let Some(x) = a && x < 10 && let Some(y) = Some(x * 2) { out[0] = y; } else { out[0] = 99; }")
    assert run("n: u32, ", body, [4])[0] == 8
    assert run("n: u32, ", body, [1])[0] == 99
    assert run("n: u32, ", body, [12])[0] == 99


def test_let_else_diverges_when_the_pattern_fails():
    body = ("let v: Option<u32> = if n > 0 { Some(n + 1) } else { None };\n"
            "let Some(w) = v else { return; };\nout[0] = w;")
    assert run("n: u32, ", body, [3])[0] == 4
    assert run("n: u32, ", body, [0])[0] == 0


def test_let_else_must_diverge():
    with pytest.raises(OxideError, match="must diverge"):
        build(kernel("n: u32", "let v: Option<u32> = None;\nlet Some(w) = v else { let z = 1u32; };"))


def test_items_inside_a_function_body_and_statement_attributes():
    src = kernel("x: &[f32], mut out: DisjointSlice<f32>",
                 "const SCALE: f32 = 2.0;\nfn twice(v: f32) -> f32 { v * SCALE }\n"
                 "let idx = thread::index_1d();\nlet i = idx.get();\n#[allow(unused)]\nlet unused = 3u32;\n"
                 "if let Some(o) = out.get_mut(idx) { *o = twice(x[i]); }")
    assert "arith.mulf" in ir(src)


def test_module_qualified_paths():
    src = ("mod util {\n    pub const K: u32 = 7;\n    pub fn add_k(v: u32) -> u32 { v + K }\n}\n"
           + kernel("n: u32, mut out: DisjointSlice<u32>",
                    "let idx = thread::index_1d();\n"
                    "if let Some(o) = out.get_mut(idx) { *o = util::add_k(n) + crate::util::K; }"))
    assert "arith.addi" in ir(src)


def test_raw_pointer_kernel_parameters_and_casts():
    src = ("#[kernel]\npub unsafe fn k(p: *mut f32, n: usize) {\n"
           "    let q = p as *mut u32;\n    *q.add(n) = 1u32;\n}")
    text = ir(src)
    assert "!simt.ptr<f32, 1 : i64>" in text and '"simt.ptr_cast"' in text


def test_addr_of_shared_array():
    src = ("#[kernel]\npub unsafe fn k(v: f32) {\n"
           "    static mut S: SharedArray<f32, 32> = SharedArray::UNINIT;\n"
           "    let p = core::ptr::addr_of_mut!(S) as *mut f32;\n    *p.add(1) = v;\n}")
    assert '"simt.shared_ptr"' in ir(src)


def test_get_mut_indexed_mints_and_resolves():
    src = kernel("mut out: DisjointSlice<u32>",
                 "if let Some((o, idx)) = out.get_mut_indexed() { *o = idx.get() as u32; }")
    text = ir(src)
    assert '"simt.index_1d"' in text and '"simt.get_mut"' in text


def test_assign_to_an_array_field_of_a_mut_struct():
    extra = "#[derive(Clone, Copy)]\nstruct Pkt { data: [u32; 4], n: u32 }"
    body = "let mut p = Pkt { data: [0u32; 4], n: 2 };\np.data[1] = 5;\nout[0] = p.data[1] + p.n;"
    assert run("", body, [], extra)[0] == 7


def test_wildcard_inside_some():
    src = kernel("mut out: DisjointSlice<u32>",
                 "let idx = thread::index_1d();\nif let Some(_) = out.get_mut(idx) { }")
    assert '"simt.get_mut"' in ir(src)


def test_integer_helpers_from_core():
    body = ("let (s, o) = n.overflowing_add(0xffff_fff0u32);\nout[0] = s;\nout[1] = o as u32;\n"
            "out[2] = n.is_multiple_of(4) as u32;")
    assert run("n: u32, ", body, [0x20])[:3] == [0x10, 1, 1]
    assert "arith.bitcast" in ir(kernel("n: u32", "let f = f32::from_bits(n);"))


def test_closures_capture_and_are_inlined():
    extra = "fn apply<F: Fn(u32) -> u32>(f: F, v: u32) -> u32 { f(v) }"
    body = ("let k = 3u32;\nlet scale = |v: u32| v * k;\nlet add = |a, b| a + b;\n"
            "out[0] = add(scale(n), apply(|v| v + 1, n));")
    assert run("n: u32, ", body, [5], extra)[0] == 15 + 6


def test_kernel_attribute_instantiation_list():
    src = ("#[kernel(f32, i32)]\npub fn scale<T: Copy + core::ops::Mul<Output = T>>(x: &[T], k: T, mut out: DisjointSlice<T>) {\n"
           "    let idx = thread::index_1d();\n    let i = idx.get();\n"
           "    if let Some(o) = out.get_mut(idx) { *o = x[i] * k; }\n}")
    text = ir(src)
    assert "gpu.func @scale_f32" in text and "gpu.func @scale_i32" in text


def test_launch_contract_requires_keeps_nested_parentheses():
    src = ("#[kernel]\n#[launch_contract(domain = 1, requires = (n >= 1, x.len() == n))]\n"
           "pub fn k(x: &[f32], n: usize) { }")
    assert 'requires = "n >= 1, x.len() == n"' in ir(src)


def test_pointer_keeps_its_address_space_through_an_annotation():
    src = ("#[kernel]\npub unsafe fn k(v: f32) {\n"
           "    let p: *mut f32 = DynamicSharedArray::<f32, 16>::get();\n    *p = v;\n}")
    assert "!simt.ptr<f32, 3 : i64>" in ir(src)


def test_nested_arrays_index_assign_and_copy_semantics():
    body = ("let mut m = [[0u32; 3]; 2];\nfor i in 0..2 { for j in 0..3 { m[i][j] = (i * 10 + j) as u32; } }\n"
            "let row = m[1];\nm[1][0] = 99;\nlet lut = [[1u32, 2], [3, 4]];\n"
            "out[0] = m[0][2];\nout[1] = row[0];\nout[2] = m[1][0];\nout[3] = lut[1][0];")
    assert run("", body, [])[:4] == [2, 10, 99, 3]


def test_operator_overloading_on_structs():
    extra = ("#[derive(Clone, Copy)]\nstruct C { re: u32, im: u32 }\n"
             "impl core::ops::Add for C { type Output = C; fn add(self, o: C) -> C { C { re: self.re + o.re, im: self.im + o.im } } }\n"
             "impl core::ops::Mul for C { type Output = C; fn mul(self, o: C) -> C { C { re: self.re * o.re, im: self.im * o.im } } }")
    body = "let a = C { re: 2, im: 3 };\nlet b = C { re: 4, im: 5 };\nlet c = a * b + a;\nout[0] = c.re;\nout[1] = c.im;"
    assert run("", body, [], extra)[:2] == [10, 18]


def test_for_over_slices_and_arrays():
    body = ("let mut s = 0u32;\nfor v in x.iter() { s += v; }\nout[0] = s;\n"
            "let mut t = 0u32;\nfor (i, v) in x.iter().enumerate() { t += (i as u32) * v; }\nout[1] = t;\n"
            "let a = [1u32, 2, 3];\nlet mut u = 0u32;\nfor v in a { u += v; }\nfor v in &a { u += v; }\nout[2] = u;")
    assert run("x: &[u32], ", body, [[5, 6, 7]])[:3] == [18, 6 + 14, 12]


def test_uniform_values_are_transparent():
    src = ("#[kernel]\npub fn k(n: Uniform<u32>, mut out: DisjointSlice<u32>) {\n"
           "    let w = uniform::block_dim_x();\n    let idx = thread::index_1d();\n"
           "    if let Some(o) = out.get_mut(idx) { *o = n.get() + w.get(); }\n}")
    text = ir(src)
    assert "gpu.func @k(%arg0: i32" in text and '"simt.block_dim"' in text


def test_atomic_cells_in_place_and_from_pointers():
    src = ("#[kernel]\npub unsafe fn k(bins: &[DeviceAtomicU32], p: *mut u32) {\n"
           "    let cell = &bins[1];\n    let old = cell.load(AtomicOrdering::Acquire);\n"
           "    bins[0].fetch_add(old, AtomicOrdering::Relaxed);\n"
           "    let other = DeviceAtomicU32::from_ptr(p);\n    other.store(3, AtomicOrdering::Release);\n}")
    text = ir(src)
    assert text.count('"simt.elem_ptr"') == 2 and '"simt.atomic_load"' in text and '"simt.atomic_store"' in text


def test_reference_to_pointer_cast():
    src = kernel("mut out: DisjointSlice<u32>",
                 "let idx = thread::index_1d();\nif let Some(o) = out.get_mut(idx) {\n"
                 "    let p = o as *mut u32;\n    unsafe { *p = 1; }\n}")
    assert '"simt.ref_ptr"' in ir(src)


def test_rotate_and_map_or():
    body = ("out[0] = n.rotate_left(4);\nout[1] = n.rotate_right(4);\n"
            "let o: Option<u32> = if n > 0 { Some(n) } else { None };\nout[2] = o.map_or(7, |v| v + 1);")
    assert run("n: u32, ", body, [0x1234_5678])[:3] == [0x2345_6781, 0x8123_4567, 0x1234_5679]
    assert run("n: u32, ", body, [0])[2] == 7


def test_arrays_of_structs_and_tuples():
    extra = "#[derive(Clone, Copy)]\nstruct P { a: u32, b: [u32; 2] }"
    body = ("let mut ps = [P { a: 0, b: [0, 0] }; 3];\nfor i in 0..3 { ps[i].a = i as u32 * 10; ps[i].b[1] = i as u32; }\n"
            "ps[2] = P { a: 7, b: [8, 9] };\nlet copy = ps[1];\nps[1].a = 55;\n"
            "let table = [(1u32, 2u32), (3, 4)];\n"
            "out[0] = ps[0].a + ps[1].b[1];\nout[1] = copy.a;\nout[2] = ps[2].b[0] + ps[2].a;\n"
            "out[3] = table[1].0 + table[0].1;\nout[4] = ps[1].a;")
    assert run("", body, [], extra)[:5] == [1, 10, 15, 5, 55]


def test_slices_from_raw_parts_copy_and_swap():
    src = ("#[kernel]\npub unsafe fn k(p: *mut u32, q: *mut u32, n: usize) {\n"
           "    let s = core::slice::from_raw_parts_mut(p, n);\n    s[0] = 1;\n"
           "    core::ptr::copy_nonoverlapping(p, q, n);\n"
           "    let mut a = 1u32;\n    let mut b = 2u32;\n    core::mem::swap(&mut a, &mut b);\n    *q = a;\n}")
    text = ir(src)
    assert '"simt.slice_from_ptr"' in text and '"simt.store"' in text and "scf.for" in text


def test_mut_references_to_locals():
    extra = "fn bump(x: &mut u32, by: u32) { *x += by; }"
    body = "let mut a = 3u32;\nbump(&mut a, 4);\nlet r = &mut a;\n*r = *r * 2;\nout[0] = a;"
    assert run("", body, [], extra)[0] == 14


def test_compare_exchange_returns_a_result():
    src = ("#[kernel]\npub fn k(cells: &[DeviceAtomicU32], mut out: DisjointSlice<u32>) {\n"
           "    let idx = thread::index_1d();\n"
           "    let got = match cells[0].compare_exchange(0, 1, AtomicOrdering::AcqRel, AtomicOrdering::Relaxed) {\n"
           "        Ok(prev) => prev,\n        Err(now) => now + 100,\n    };\n"
           "    let ok = cells[1].compare_exchange(2, 3, AtomicOrdering::SeqCst, AtomicOrdering::SeqCst).is_ok();\n"
           "    if let Some(o) = out.get_mut(idx) { *o = got + ok as u32; }\n}")
    assert '"simt.atomic_cmpxchg"' in ir(src)


def test_mut_reference_to_a_handle_is_the_handle():
    extra = "fn put(out: &mut DisjointSlice<u32>, idx: ThreadIndex<Index1D>, v: u32) {\n    if let Some(o) = out.get_mut(idx) { *o = v; }\n}"
    src = kernel("mut out: DisjointSlice<u32>", "let idx = thread::index_1d();\nput(&mut out, idx, 7);", extra)
    assert '"simt.get_mut"' in ir(src)


def test_atomic_cell_through_a_cast_pointer():
    src = ("#[kernel]\npub unsafe fn k(counter: &mut [u32]) {\n"
           "    let a = unsafe { &*(counter.as_ptr() as *const DeviceAtomicU32) };\n"
           "    let v = a.load(AtomicOrdering::Acquire);\n    a.fetch_add(v, AtomicOrdering::Relaxed);\n}")
    text = ir(src)
    assert '"simt.atomic_load"' in text and '"simt.atomic_rmw"' in text
