"""`*mut SharedArray<T, N>` (places.shared_pointer): `&raw mut TILE` as a raw pointer to the array in shared
memory, with `addr()` / `is_null()` / `as usize`, round trips through an integer (`addr as *mut
SharedArray<T, N>`), as a function parameter, a struct field and an enum payload, `ptr::eq`, writes through
`(*p)[i]`, and `SharedArray::as_raw_mut_ptr(&raw mut TILE)` for per-thread writes."""

from __future__ import annotations

import numpy as np

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_HEAD = """use cuda_device::{kernel, thread, DisjointSlice, SharedArray};

struct Holder { pointer: *mut SharedArray<f32, 2>, cookie: u32 }

fn through_field(pointer: *mut SharedArray<f32, 2>) -> *mut SharedArray<f32, 2> {
    let h = Holder { pointer, cookie: 7 };
    h.pointer
}
"""

# What the emulator runs (it has no integer-to-pointer conversion: those parts are checked by ptxas below).
_SRC = _HEAD + """
#[kernel]
pub fn k(seed: f32, mut out: DisjointSlice<f32>) {
    static mut NORM: SharedArray<f32, 2> = SharedArray::UNINIT;
    static mut SCRATCH: SharedArray<u32, 32> = SharedArray::UNINIT;
    let lane = thread::threadIdx_x() as usize;
    if lane == 0 {
        unsafe {
            NORM[0] = seed;
            NORM[1] = 0.0;
            let raw = &raw mut NORM;
            let address = raw.addr();
            *out.get_unchecked_mut(0) = if raw.is_null() || address == 0 { 0.0 } else { 1.0 };
            let same = through_field(raw);
            *out.get_unchecked_mut(1) = if same.addr() == address { 1.0 } else { 0.0 };
            (&mut (*same))[1] = NORM[0] + 1.0;
            *out.get_unchecked_mut(2) = if core::ptr::eq(same, raw) { NORM[1] } else { -1.0 };
            *out.get_unchecked_mut(3) = if (raw as usize) == address { 1.0 } else { 0.0 };
        }
    }
    let scratch = unsafe { SharedArray::as_raw_mut_ptr(&raw mut SCRATCH) };
    unsafe { scratch.add(lane).write((lane * 3) as u32) };
    thread::sync_threads();
    if lane == 0 {
        let mut sum = 0u32;
        for i in 0..32 {
            sum += unsafe { scratch.add(i).read() };
        }
        unsafe { *out.get_unchecked_mut(4) = sum as f32 };
    }
}
"""

# An integer round trip and an enum payload (the `Empty` arm holds a null placeholder pointer).
_ROUND_TRIP = _HEAD + """
enum Payload { Empty, Held(Holder) }

fn stored_address(use_it: bool, pointer: *mut SharedArray<f32, 2>) -> usize {
    let payload = if use_it { Payload::Held(Holder { pointer, cookie: 7 }) } else { Payload::Empty };
    match payload {
        Payload::Held(h) if h.cookie == 7 => h.pointer.addr(),
        _ => 0,
    }
}

#[kernel]
pub fn k(seed: f32, mut out: DisjointSlice<f32>) {
    static mut NORM: SharedArray<f32, 2> = SharedArray::UNINIT;
    unsafe {
        let raw = &raw mut NORM;
        let back = stored_address(seed > 0.0, raw) as *mut SharedArray<f32, 2>;
        (&mut (*back))[1] = seed;
        *out.get_unchecked_mut(0) = if core::ptr::eq(back, raw) { NORM[1] } else { 0.0 };
    }
}
"""


def test_shared_array_pointers():
    out = np.zeros(5, np.float32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "k", (1,), (32,), [np.float32(2.5), out])
    assert out.tolist() == [1.0, 1.0, 3.5, 1.0, float(3 * sum(range(32)))]


@needs_ptxas
def test_shared_array_pointers_assemble(tmp_path):
    for src in (_SRC, _ROUND_TRIP):
        ptx = assemble(src, tmp_path)
        assert "cvta.shared" in ptx  # the generic address of the shared array
