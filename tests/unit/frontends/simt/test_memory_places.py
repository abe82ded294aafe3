"""Aggregates in memory: slices, DisjointSlices, shared arrays and raw pointers whose elements are arrays,
tuples or structs; place chains (`rows[r][c]`, `cells[i].lo`) read and written in place; references into
memory (`&mut a[i]`, what `get_mut` yields) and `if`/`match` that yield them. What the kernels compute is
checked with the reference interpreter (aggregate elements are Python lists), the layout with ptxas."""

from __future__ import annotations

import re
import subprocess

import pytest

import oxide

from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.simt_interp import Trap, run_kernel
from tests.unit.frontends.simt.test_constructs import build, ir

_ROW = "use cuda_device::{DisjointSlice, kernel, thread};\n"


def test_disjoint_slice_of_arrays_written_through_get_mut():
    src = _ROW + """#[kernel]
pub fn k(mut out: DisjointSlice<[f32; 3]>) {
    let idx = thread::index_1d();
    let lane = idx.get();
    let row = match out.get_mut(idx) {
        Some(r) => r,
        None => return,
    };
    for j in 0..3 {
        row[j] = (10 * lane + j) as f32;
    }
    row[1] += 0.5;
}"""
    text = ir(src)
    assert '!simt.disjoint<!llvm.array<3 x f32>, "1d">' in text
    out = [[0.0] * 3 for _ in range(4)]
    run_kernel(build(src), [out], thread=2)
    assert out[2] == [20.0, 21.5, 22.0] and out[1] == [0.0, 0.0, 0.0]


def test_nested_rows_reborrowed_as_a_slice():
    src = _ROW + """#[kernel]
pub fn k(mut out: DisjointSlice<[[f32; 3]; 2]>) {
    let idx = thread::index_1d();
    if let Some(m) = out.get_mut(idx) {
        m[0][0] = 10.0;
        m[1][2] = 5.0;
        let rows: &mut [[f32; 3]] = m;
        let r = ((rows[0][0] as usize) & 1) + 1;
        rows[r - 1][1] = 7.0;
        let e = &mut rows[1][0];
        *e = 42.0;
    }
}"""
    out = [[[0.0] * 3, [0.0] * 3]]
    run_kernel(build(src), [out])
    assert out[0] == [[10.0, 7.0, 0.0], [42.0, 0.0, 5.0]]


def test_struct_fields_written_in_place_and_read_back():
    src = _ROW + """#[derive(Clone, Copy)]
struct Cell { lo: f32, hi: u32 }
#[kernel]
pub fn k(input: &[Cell], mut out: DisjointSlice<[Cell; 2]>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(cells) = out.get_mut(idx) {
        for j in 0..2 {
            if let Some(c) = cells.get_mut(j) {
                c.lo = input[i].lo + j as f32;
                c.hi = input[i].hi * 2;
            }
        }
        cells.get_mut(5).map(|c| c.hi = 99);
    }
}"""
    out = [[[0.0, 0], [0.0, 0]]]
    run_kernel(build(src), [[[1.5, 4]], out])
    assert out[0] == [[1.5, 8], [2.5, 8]]  # get_mut(5) is None: the closure never runs


def test_slice_of_tuples_reads_whole_elements():
    src = """#[kernel]
pub unsafe fn k(pairs: &[(u32, f32)], out: &mut [f32]) {
    let (n, x) = pairs[1];
    let p = &pairs[0];
    out[0] = x * n as f32 + p.1;
}"""
    out = [0.0]
    run_kernel(build(src), [[[2, 0.5], [3, 1.5]], out])
    assert out == [5.0]


def test_element_index_past_an_array_in_memory_traps():
    src = _ROW + """#[kernel]
pub fn k(mut out: DisjointSlice<[u32; 2]>, j: usize) {
    let idx = thread::index_1d();
    if let Some(row) = out.get_mut(idx) { row[j] = 1; }
}"""
    run_kernel(build(src), [[[0, 0]], 1])
    with pytest.raises(Trap):
        run_kernel(build(src), [[[0, 0]], 2])


def test_if_yields_a_pointer_through_an_address_local():
    src = """#[kernel]
pub unsafe fn k(a: &[u32], b: &[u32], pick_b: bool, out: &mut [u32]) {
    let p = if pick_b { b.as_ptr() } else { a.as_ptr().add(1) };
    out[0] = *p;
}"""
    text = ir(src)
    assert '"simt.ptr_to_int"' in text and '"simt.int_to_ptr"' in text
    for pick_b, want in ((True, 7), (False, 2)):
        out = [0]
        run_kernel(build(src), [[1, 2], [7, 8], pick_b, out])
        assert out == [want]


def test_struct_layout_in_memory_is_c_order_with_natural_alignment(tmp_path):
    src = _ROW + """#[derive(Clone, Copy)]
struct Mixed { a: u8, b: f64, c: u32 }
#[kernel]
pub fn k(mut out: DisjointSlice<Mixed>) {
    let idx = thread::index_1d();
    if let Some(m) = out.get_mut(idx) { m.c = 3; m.b = 2.0; }
}"""
    assert "!llvm.struct<(i8, f64, i32)>" in ir(src)
    ptx = oxide.compile(src).ptx["sm_90"]
    # The element stride is 24 bytes (u8, pad 7, f64, u32, pad 4); b sits at +8 and c at +16.
    assert re.search(r"mad\.lo\.s64\s+%rd\d+, %rd\d+, 24,", ptx)
    assert re.search(r"st\.global\.b32\s+\[%rd\d+\+16\], 3;", ptx) and re.search(r"st\.global\.b64\s+\[%rd\d+\+8\]", ptx)
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")], check=True)


def test_mutable_borrow_of_a_read_only_element_is_rejected():
    src = """#[kernel]
pub unsafe fn k(rows: &[[f32; 2]]) {
    let e = &mut rows[0][1];
    *e = 1.0;
}"""
    with pytest.raises(OxideError, match="cannot borrow this element as mutable"):
        build(src)


def test_array_kernel_parameter_is_passed_by_value_as_scalars():
    src = """#[derive(Clone, Copy)]
pub struct GridShape { counts: [u32; 3] }
#[kernel]
pub unsafe fn k(shape: GridShape, i: usize, out: &mut [u32]) {
    out[0] = shape.counts[i % shape.counts.len()] + shape.counts.len() as u32;
}"""
    result = build(src)
    assert [p.mlir_types for p in result.kernels[0].params][0] == ["i32", "i32", "i32"]
    out = [0]
    run_kernel(result, [5, 6, 7, 4, out])
    assert out == [9]  # counts[4 % 3] + 3


def test_mutable_references_to_local_array_elements_write_in_place():
    from tests.unit.frontends.simt.test_constructs import run

    body = """let mut arr = [(1u32, 10u32), (2u32, 20u32)];
let first = &mut arr[j].0;
*first += 5;
let mut grid = [[0u32; 2]; 2];
let cell = &mut grid[1][j];
*cell = 9;
let row = &mut grid[0];
row[1] = 4;
out[0] = arr[0].0 * 100 + arr[1].0;
out[1] = grid[1][1] * 10 + grid[0][1];"""
    assert run("j: usize, ", body, [1])[:2] == [107, 94]


def test_shared_array_of_arrays_and_whole_element_stores(tmp_path):
    src = _ROW + """use cuda_device::SharedArray;
#[kernel]
pub unsafe fn k(mut out: DisjointSlice<[f32; 4]>) {
    static mut TILE: SharedArray<[f32; 4], 8> = SharedArray::UNINIT;
    let idx = thread::index_1d();
    let t = idx.get() % 8;
    TILE[t][3] = 2.0;
    let copy = TILE[(t + 1) % 8];
    if let Some(row) = out.get_mut(idx) {
        *row = [1.0; 4];
        row[3] = copy[3];
    }
}"""
    text = ir(src)
    assert '!simt.shared<!llvm.array<4 x f32>, 8 : i64>' in text and '"simt.shared_ptr"' in text
    ptx = oxide.compile(src).ptx["sm_90"]
    assert "st.shared.b32" in ptx and ".shared .align 4 .b8" in ptx
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")], check=True)
