"""cuda_device::vector: the vector types' layout, `as_vectors`/`as_vectors_mut` views (None on a misaligned
start, the whole vectors of the slice otherwise), lane access, and the views on the emulator."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oxide
from oxide.diagnostics import OxideError
from oxide.runtime.emulator import launch

VIEWS = (Path(__file__).parents[3] / "lit" / "frontends" / "simt" / "Inputs" / "vector_views.rs").read_text()


@pytest.fixture(scope="module")
def program() -> str:
    return oxide.compile(VIEWS, "vector_views.rs").emulator


def test_vector_types_have_the_cuda_layouts():
    src = """use cuda_device::vector::{F32x2, F32x4, F64x2, I32x4};
use cuda_device::{kernel, DisjointSlice};
#[kernel]
pub unsafe fn sizes(out: &mut [usize]) {
    out[0] = core::mem::size_of::<F32x4>();
    out[1] = core::mem::align_of::<F32x4>();
    out[2] = core::mem::align_of::<F32x2>();
    out[3] = core::mem::align_of::<F64x2>();
    out[4] = core::mem::size_of::<[I32x4; 3]>();
}
"""
    out = np.zeros(5, np.uint64)
    launch(oxide.compile(src, "k.rs").emulator, "sizes", (1,), (1,), [out])
    assert out.tolist() == [16, 16, 8, 16, 48]


def test_view_copy_round_trips(program):
    flat = np.arange(1024, dtype=np.float32) * 0.25 + 1
    out = np.zeros_like(flat)
    launch(program, "f32x4_view_copy", (1,), (256,), [flat, out])
    assert np.array_equal(out, flat)


def test_lanes_and_new(program):
    flat = np.arange(1024, dtype=np.float32)
    out = np.zeros(256, np.float32)
    launch(program, "lanes", (1,), (256,), [flat, out])
    quads = flat.reshape(256, 4)
    assert np.array_equal(out, quads[:, 3] * 1000 + quads[:, 0])


def test_misaligned_start_gives_none(program):
    backing = np.zeros(1028, np.float32)  # numpy allocations are 16-byte aligned: +4 bytes is not
    backing[1:1025] = np.arange(1024, dtype=np.float32) + 1
    out = np.zeros(256, np.float32)
    launch(program, "lanes", (1,), (256,), [backing[1:1025], out])
    assert not out.any()


def test_a_tail_of_fewer_than_four_floats_is_not_in_the_view(program):
    flat = np.arange(1026, dtype=np.float32) + 1  # 256 whole quads and 2 floats
    out = np.zeros_like(flat)
    launch(program, "f32x4_view_copy", (2,), (256,), [flat, out])
    assert np.array_equal(out[:1024], flat[:1024]) and not out[1024:].any()


def test_as_vectors_of_the_wrong_element_type_is_an_error():
    src = """use cuda_device::vector::{self, F32x4};
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(input: &[u32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        if let Some(v) = vector::as_vectors::<F32x4>(input) { *o = v[0].x(); }
    }
}
"""
    with pytest.raises(OxideError, match=r"`vector::as_vectors::<F32x4>` takes a `&\[f32\]`, not `&\[u32\]`"):
        oxide.compile(src, "k.rs")


def test_tuple_struct_constructor_builds_a_vector_stored_whole():
    src = """use cuda_device::vector::F32x4;
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(mut out: DisjointSlice<F32x4>) {
    let idx = thread::index_1d();
    let i = idx.get() as f32;
    if let Some(o) = out.get_mut(idx) { *o = F32x4([i, i + 1.0, i + 2.0, i + 3.0]); }
}
"""
    module = oxide.compile(src, "k.rs")
    assert "st.global.v4" in module.ptx["sm_90"]
    out = np.zeros(64, np.float32)
    launch(module.emulator, "k", (1,), (16,), [out])
    assert np.array_equal(out.reshape(16, 4), np.arange(16, dtype=np.float32)[:, None] + np.arange(4))


def test_indexing_a_vector_reads_its_lanes():
    src = """use cuda_device::vector::{self, F32x4};
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(input: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        if let Some(v) = vector::as_vectors::<F32x4>(input) {
            let q = v[i / 4];
            *o = q[i % 4] + v[i / 4][3 - i % 4] * 100.0;
        }
    }
}
"""
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    launch(oxide.compile(src, "k.rs").emulator, "k", (1,), (64,), [x, out])
    quads = x.reshape(16, 4)
    assert np.array_equal(out, (quads + 100 * quads[:, ::-1]).reshape(-1))
