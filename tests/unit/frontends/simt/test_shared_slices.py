"""A shared array borrowed where `&[T]` is expected (`sum(&TILE)`, `let s: &[f32] = &TILE`, `sum(&ROWS[r])` of
a `SharedArray<[f32; W], R>`): read into a local array once and used through a slice window on it
(emit_places.unsize_snapshot). The `&mut [T]` form is rejected (rejections/shared_array_mut_slice.rs)."""

from __future__ import annotations

import numpy as np

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_HELPER = """use cuda_device::{kernel, thread, DisjointSlice, SharedArray};

fn weighted(values: &[f32], k: usize) -> f32 {
    let mut acc = 0.0;
    let mut i = 0;
    while i < values.len() {
        acc += values[i] * ((i + k) as f32);
        i += 1;
    }
    acc
}
"""

_WHOLE = _HELPER + """
#[kernel]
pub fn k(input: &[f32], mut out: DisjointSlice<f32>) {
    static mut TILE: SharedArray<f32, 32> = SharedArray::UNINIT;
    let idx = thread::index_1d();
    let t = idx.get();
    unsafe { TILE[t] = input[t] * 2.0; }
    thread::sync_threads();
    let s: &[f32] = unsafe { &TILE };
    let tail = &s[t % 5..];
    let v = weighted(unsafe { &TILE }, t) + tail[1] + s.len() as f32;
    if let Some(slot) = out.get_mut(idx) {
        *slot = v;
    }
}
"""

_ROWS = _HELPER + """
const W: usize = 16;

#[kernel]
pub fn k(input: &[f32], mut out: DisjointSlice<f32>) {
    static mut ROWS: SharedArray<[f32; W], 4> = SharedArray::UNINIT;
    let idx = thread::index_1d();
    let t = idx.get();
    if t < 64 {
        unsafe { ROWS[t / W][t % W] = input[t]; }
    }
    thread::sync_threads();
    let row: &[f32; W] = unsafe { &ROWS[t % 4] };
    let v = weighted(row, t);
    if let Some(slot) = out.get_mut(idx) {
        *slot = v;
    }
}
"""


def test_whole_shared_array_as_slice():
    rng = np.random.default_rng(5)
    data = rng.standard_normal(32).astype(np.float32)
    out = np.zeros(32, np.float32)
    launch(oxide.compile(_WHOLE, "k.rs").emulator, "k", (1,), (32,), [data, out])
    tile = data * 2
    want = [float(np.sum(tile * (np.arange(32) + t), dtype=np.float32)) + tile[t % 5 + 1] + 32.0 for t in range(32)]
    np.testing.assert_allclose(out, np.array(want, np.float32), rtol=1e-5, atol=1e-4)


@needs_ptxas
def test_shared_slices_assemble(tmp_path):
    for src in (_WHOLE, _ROWS):
        ptx = assemble(src, tmp_path)
        assert "ld.shared" in ptx
