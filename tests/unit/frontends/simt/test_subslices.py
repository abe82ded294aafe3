"""Slices made from slices: `&s[a..b]` and its open forms, split_at(_mut)(_checked), as_chunks::<N>(),
`iter_mut()` loops; and pointers as integers (`p as usize`, generic addresses of shared memory)."""

from __future__ import annotations

import re

import pytest

import oxide
from tests.unit.frontends.simt.simt_interp import Trap, run_kernel
from tests.unit.frontends.simt.test_constructs import build, ir


def test_subslices_read_the_right_window():
    src = """fn first_two(s: &[u32]) -> u32 { s[0] + 10 * s[1] }
#[kernel]
pub unsafe fn k(bytes: &[u32], i: usize, out: &mut [u32]) {
    out[0] = first_two(&bytes[0..]);
    out[1] = first_two(&bytes[2 * i..]);
    out[2] = bytes[1..=3].len() as u32 + 10 * bytes[..i].len() as u32;
    let tail = &mut out[3..];
    tail[0] = 9;
}"""
    out = [0] * 4
    run_kernel(build(src), [[1, 2, 3, 4, 5], 1, out])
    assert out == [21, 43, 13, 9]


def test_subslice_out_of_bounds_traps():
    src = """#[kernel]
pub unsafe fn k(xs: &[u32], a: usize, b: usize, out: &mut [u32]) {
    out[0] = xs[a..b].len() as u32;
}"""
    out = [0]
    run_kernel(build(src), [[1, 2, 3], 1, 3, out])
    assert out == [2]
    for a, b in ((2, 1), (0, 4)):
        with pytest.raises(Trap):
            run_kernel(build(src), [[1, 2, 3], a, b, [0]])


def test_split_at_mut_checked_and_iter_mut():
    src = """#[kernel]
pub unsafe fn k(s: &mut [u32], k: usize) {
    if let Some((left, right)) = s.split_at_mut_checked(k) {
        for x in left.iter_mut() { *x = x.wrapping_add(1); }
        for x in right.iter_mut() { *x += 100; }
    }
}"""
    data = [0, 0, 0, 0]
    run_kernel(build(src), [data, 1])
    assert data == [1, 100, 100, 100]
    data = [0, 0]
    run_kernel(build(src), [data, 3])  # past the end: None, nothing written
    assert data == [0, 0]


def test_split_at_past_the_end_traps():
    src = """#[kernel]
pub unsafe fn k(s: &[u32], k: usize, out: &mut [u32]) {
    let (a, b) = s.split_at(k);
    out[0] = a.len() as u32 * 10 + b.len() as u32;
}"""
    out = [0]
    run_kernel(build(src), [[1, 2, 3], 1, out])
    assert out == [12]
    with pytest.raises(Trap):
        run_kernel(build(src), [[1, 2, 3], 4, [0]])


def test_as_chunks_views_whole_chunks_as_arrays():
    src = """#[kernel]
pub unsafe fn k(input: &[f32], i: usize, out: &mut [f32]) {
    let (chunks, rest) = input.as_chunks::<4>();
    let c = chunks[i];
    out[0] = c[0] + 2.0 * c[3] + rest.len() as f32;
}"""
    text = ir(src)
    assert "!simt.slice<!llvm.array<4 x f32>>" in text and "arith.divui" in text
    ptx = oxide.compile(src).ptx["sm_90"]
    assert re.search(r"shl\.b64\s+%rd\d+, %rd\d+, 4;", ptx)  # chunk i starts 16 bytes per chunk in


def test_pointer_to_integer_is_the_generic_address():
    src = """use cuda_device::{kernel, SharedArray};
#[kernel]
pub unsafe fn k(p: *mut f32, out: &mut [u64]) {
    static mut SMEM: SharedArray<u8, 256> = SharedArray::UNINIT;
    out[0] = &raw const SMEM as u64;
    out[1] = p as u64;
    let back = out[1] as *mut f32;
    *back = 1.0;
}"""
    text = ir(src)
    assert text.count('"simt.ptr_to_int"') == 2 and '"simt.int_to_ptr"' in text
    ptx = oxide.compile(src).ptx["sm_90"]
    assert "cvta.shared.u64" in ptx  # the shared array's generic address, not its window offset


def test_mutable_pointer_locals_and_arrays_of_pointers():
    src = """unsafe fn walk(mut p: *const u32, mut steps: usize) -> *const u32 {
    while steps != 0 { p = p.add(1); steps -= 1; }
    p
}
#[kernel]
pub unsafe fn k(xs: &[u32], n: usize, out: &mut [u32]) {
    let base = xs.as_ptr();
    let slots = [base, walk(base, n)];
    let mut q = slots[1];
    out[0] = *q;
    q = base;
    out[1] = *q + *slots[0];
}"""
    text = ir(src)
    assert "memref<2xi64>" in text  # the array of pointers holds addresses
    out = [0, 0]
    run_kernel(build(src), [[5, 6, 7], 2, out])
    assert out == [7, 10]


def test_pointer_methods_and_conversions(tmp_path):
    src = """#[derive(Clone, Copy)]
struct Pair { a: u8, b: f64 }
#[kernel]
pub unsafe fn k(xs: &[u32], out: &mut [i64]) {
    let base = xs.as_ptr();
    let hi = base.add(3);
    out[0] = hi.offset_from(base) as i64;
    out[1] = hi.byte_offset_from_unsigned(base) as i64;
    out[2] = *base.cast::<[u32; 3]>().wrapping_add(1).cast::<u32>() as i64;
    out[3] = (hi.wrapping_sub(3) == base) as i64 + 2 * (base.cast::<()>() == base.cast::<()>()) as i64;
    let none: *const u32 = core::ptr::null();
    out[4] = none.is_null() as i64 + (hi.addr() as i64 & 0);
    out[5] = core::mem::size_of::<Pair>() as i64 * 100 + core::mem::align_of::<Pair>() as i64;
    out[6] = i64::from(u32::from(true)) + i64::from(f64::from(2.5f32) as i32);
}"""
    text = ir(src)
    assert '"simt.ptr_to_int"' in text and '"simt.ptr_cast"' in text
    assert "arith.constant 16 : i64" in text  # size_of::<Pair>(): u8, 7 bytes of padding, f64
    ptx = oxide.compile(src).ptx["sm_90"]
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    import subprocess

    subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")], check=True)
    assert re.search(r"shr\.s64\s+%rd\d+, %rd\d+, 2;|st\.global\.(b|u)64\s+\[%rd\d+\], 3;", ptx)


def test_from_accepts_only_lossless_conversions():
    from oxide.diagnostics import OxideError

    with pytest.raises(OxideError, match=r"the trait `From<u32>` is not implemented for `u16`"):
        build("#[kernel]\npub unsafe fn k(x: u32, out: &mut [u16]) {\n    out[0] = u16::from(x);\n}")


def test_range_values_have_start_and_end():
    from tests.unit.frontends.simt.test_constructs import run

    body = "let r: &core::ops::Range<u64> = &(8..16);\nlet s = 2..n;\nout[0] = if sel == 0 { r.start } else { r.end } as u32 + s.end;"
    assert run("sel: u32, n: u32, ", body, [1, 5])[0] == 21


def test_ptr_copy_moves_overlapping_ranges_in_either_direction():
    body = """let p = out.as_mut_ptr();
if up { core::ptr::copy(p, p.add(1), n - 1); } else { core::ptr::copy(p.add(1), p, n - 1); }"""
    src = f"#[kernel]\npub unsafe fn k(up: bool, n: usize, out: &mut [u32]) {{\n{body}\n}}"
    out = [1, 2, 3, 4]
    run_kernel(build(src), [True, 4, out])
    assert out == [1, 1, 2, 3]
    out = [1, 2, 3, 4]
    run_kernel(build(src), [False, 4, out])
    assert out == [2, 3, 4, 4]
