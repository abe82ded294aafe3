"""`DisjointSlice::from_raw_parts(ptr, len)` and `from_raw_parts_with_space(ptr, len, space)` inside a kernel:
the index space comes from the expected type or the space value (`()`: 1-D, a `u32` row width: runtime 2-D,
built as simt.with_row_width), and the slice works through `&mut DisjointSlice` helpers like a parameter does.
(Rejections: rejections/disjoint_runtime_2d_without_width.rs, disjoint_space_value_mismatch.rs.)"""

from __future__ import annotations

import numpy as np

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_SRC = """use cuda_device::{kernel, device, thread, DisjointSlice, Runtime2DIndex, Index2D};
#[device]
fn bump(v: &mut DisjointSlice<f32>) {
    if let Some(x) = v.get_mut(thread::index_1d()) {
        *x += 1.0;
    }
}
#[kernel]
pub unsafe fn flat(ptr: *mut f32, len: usize) {
    let mut v = unsafe { DisjointSlice::from_raw_parts(ptr, len) };
    bump(&mut v);
}
#[device]
fn mark(g: &mut DisjointSlice<u32, Runtime2DIndex>) {
    let w = g.row_width();
    let Some(i) = thread::index_2d_runtime(g) else {
        return;
    };
    let (r, c) = (i.row() as u32, i.col() as u32);
    if let Some(x) = g.get_mut(i) {
        *x = r * 1000 + c * 10 + w;
    }
}
#[kernel]
pub unsafe fn grid(ptr: *mut u32, len: usize, width: u32) {
    let mut g = unsafe { DisjointSlice::from_raw_parts_with_space(ptr, len, width) };
    mark(&mut g);
}
#[kernel]
pub unsafe fn typed(ptr: *mut u32, len: usize) {
    let mut a: DisjointSlice<u32, Index2D<4>> = unsafe { DisjointSlice::from_raw_parts(ptr, len) };
    if let Some(i) = thread::index_2d::<4>() {
        let n = i.get() as u32;
        if let Some(x) = a.get_mut(i) {
            *x = n + 1;
        }
    }
    let mut b = unsafe { DisjointSlice::from_raw_parts_with_space(ptr, len, ()) };
    if let Some(x) = b.get_mut(thread::index_1d()) {
        *x += 100;
    }
}
"""


def test_a_1d_slice_from_a_pointer_through_a_device_helper():
    data = np.arange(10, dtype=np.float32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "flat", (1, 1, 1), (8, 1, 1), [data, 8])
    assert data.tolist() == [1, 2, 3, 4, 5, 6, 7, 8, 8, 9]  # the slice has 8 elements: 8 and 9 untouched


def test_a_runtime_2d_slice_takes_the_row_width_it_is_built_with():
    cells = np.zeros(15, np.uint32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "grid", (1, 1, 1), (8, 8, 1), [cells, 15, np.uint32(5)])
    rows, cols = np.mgrid[0:3, 0:5]
    assert cells.reshape(3, 5).tolist() == (rows * 1000 + cols * 10 + 5).tolist()


def test_the_space_comes_from_the_annotation_or_the_unit_space_value():
    cells = np.zeros(8, np.uint32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "typed", (1, 1, 1), (8, 1, 1), [cells, 8])
    # Index2D<4> on a row of 8 threads: columns 0..3 are valid; the `()`-space slice is 1-D, all 8 threads.
    assert cells.tolist() == [101, 102, 103, 104, 100, 100, 100, 100]


@needs_ptxas
def test_disjoint_slices_from_pointers_assemble(tmp_path):
    assemble(_SRC, tmp_path)
