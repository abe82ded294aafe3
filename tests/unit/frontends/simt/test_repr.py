"""`#[repr(..)]` on structs: rustc's layout for `C`, `align(N)` and `transparent` (sizes, alignments, field
offsets, over-aligned fields nested in other structs), the LLVM struct types with explicit padding, and the
alignment stated on whole-struct reads and writes. (The rejected reprs are in rejections/repr_*.rs.)"""

from __future__ import annotations

import re

import numpy as np

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_constructs import ir

_TYPES = """use cuda_device::{kernel, thread, DisjointSlice};
#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct F3([f32; 3]);
#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct F4([f32; 4]);
#[derive(Clone, Copy)]
pub struct Outer { tag: u32, v: F3, w: u8 }
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Plain { a: u8, b: f32 }
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct Meters(f32);
#[repr(align(8))]
#[derive(Clone, Copy)]
pub struct Pair(u16, u16);
"""

_SIZES = _TYPES + """
#[kernel]
pub unsafe fn sizes(out: &mut [usize]) {
    out[0] = core::mem::size_of::<F3>();
    out[1] = core::mem::align_of::<F3>();
    out[2] = core::mem::size_of::<Outer>();
    out[3] = core::mem::align_of::<Outer>();
    out[4] = core::mem::size_of::<Plain>();
    out[5] = core::mem::size_of::<Meters>();
    out[6] = core::mem::size_of::<Pair>();
    out[7] = core::mem::align_of::<Pair>();
    out[8] = core::mem::size_of::<[F3; 2]>();
    out[9] = core::mem::size_of::<(u8, F4)>();
}
"""


def _emulate(src: str, entry: str, grid: int, block: int, args: list) -> None:
    launch(oxide.compile(src, "k.rs").emulator, entry, (grid,), (block,), args)


def test_sizes_and_alignments_are_rustcs():
    out = np.zeros(10, np.uint64)
    _emulate(_SIZES, "sizes", 1, 1, [out])
    # F3: 12 bytes rounded up to its alignment 16; Outer: tag at 0, v at 16, w at 32, size 48; a tuple with
    # an F4 aligns the F4 to 16.
    assert out.tolist() == [16, 16, 48, 16, 8, 4, 8, 8, 32, 32]


def test_llvm_structs_carry_the_padding_llvm_would_not_insert():
    src = _TYPES + """
#[kernel]
pub fn k(a: &[Outer], b: &[Pair], c: &[Plain], mut out: DisjointSlice<F3>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = F3([a[i].v.0[1], a[i].w as f32, (b[i].1 + c[i].a as u16) as f32]);
    }
}
"""
    text = ir(src)
    assert "!simt.slice<!llvm.struct<(i32, array<12 x i8>, struct<(array<3 x f32>, array<4 x i8>)>, i8, " \
           "array<15 x i8>)>>" in text
    assert "!simt.slice<!llvm.struct<(i16, i16, array<4 x i8>)>>" in text
    assert "!simt.slice<!llvm.struct<(i8, f32)>>" in text  # repr(C) needs no explicit padding
    # Field `v` of Outer is LLVM field 2 (after the padding), `w` is field 3.
    fields = re.findall(r'"simt.field_ptr"\(%\d+\) \{field = (\d) : i64\} : \(!simt.ptr<!llvm.struct<\(i32', text)
    assert fields == ["2", "3"]


def test_whole_struct_accesses_state_their_alignment_and_plain_structs_do_not():
    src = _TYPES + """
#[kernel]
pub fn copy4(a: &[F4], mut out: DisjointSlice<F4>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = a[i]; }
}
#[kernel]
pub fn copy_plain(a: &[Plain], mut out: DisjointSlice<Plain>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = a[i]; }
}
"""
    text = ir(src)
    copy4, plain = text.split("gpu.func @copy_plain")
    # Leaves at offsets 0, 4, 8, 12 of a 16-aligned struct: 16, (natural), 8, (natural); loads and stores.
    assert re.findall(r"simt\.align = (\d+)", copy4) == ["16", "8", "16", "8"]
    assert "simt.align" not in plain


def test_over_aligned_structs_run_on_the_emulator_from_flat_and_structured_arrays():
    src = _TYPES + """
#[kernel]
pub fn scale3(a: &[F3], s: f32, mut out: DisjointSlice<F3>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let x = a[i];
        *o = F3([x.0[0] * s, x.0[1] * s, x.0[2] * s]);
    }
}
"""
    n = 300
    a = np.arange(4 * n, dtype=np.float32)
    out = np.full(4 * n, -1.0, np.float32)
    _emulate(src, "scale3", 2, 256, [a, np.float32(2.0), out])
    rows = out.reshape(n, 4)
    assert np.array_equal(rows[:, :3], 2 * a.reshape(n, 4)[:, :3])
    assert (rows[:, 3] == -1.0).all()  # the padding is never written
    record = np.dtype({"names": ["v"], "formats": [(np.float32, 3)], "offsets": [0], "itemsize": 16})
    structured = np.zeros(n, record)
    _emulate(src, "scale3", 2, 256, [a.view(record), np.float32(0.5), structured])
    assert np.array_equal(structured["v"], 0.5 * a.reshape(n, 4)[:, :3])
