"""A block that runs alone keeps its shared memory in its SharedWindow: static arrays and dynamic shared
memory are views of the window's bytes, a shared pointer's integer is its generic address (low 32 bits: the
shared address) and turns back into a pointer, and pointer casts reinterpret the same bytes."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator import UnsupportedOperation, launch
from oxide.runtime.emulator.addresses import SHARED_GENERIC_BASE
from oxide.runtime.emulator.shared_window import RESERVED
from oxide.runtime.emulator.schedule import run_group
from oxide.runtime.emulator.threads import Launch, Threads
from tests.unit.runtime.emulator.helpers import program, run

_ADDRESSES = '''
use cuda_device::{kernel, thread, SharedArray};
#[kernel]
pub unsafe fn k(out: *mut u32) {
    static mut A: SharedArray<f32, 3> = SharedArray::UNINIT;
    static mut B: SharedArray<u32, 8, 64> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    if t == 0 {
        A[0] = 1.0;
        B[1] = 7;
        let a = core::ptr::addr_of!(A) as *const f32;
        let b = core::ptr::addr_of!(B) as *const u32;
        *out = (a as u64) as u32;
        *out.add(1) = (b as u64) as u32;
        let bytes = a as *const u8;
        *out.add(2) = *bytes.add(3) as u32;
        let back = ((b as u64) + 4) as *const u32;
        *out.add(3) = *back;
        *out.add(4) = ((a as u64) >> 32) as u32;
    }
}
'''


@pytest.mark.parametrize("schedule", ["warps", "lockstep"])
def test_shared_pointers_are_window_addresses_and_back(schedule):
    out = np.zeros(5, np.uint32)
    run(_ADDRESSES, 1, 64, [out], schedule=schedule, blocks_per_batch=1 if schedule == "lockstep" else None)
    # The program's declaration order: B (64-byte aligned), then A, after the system's first 1 KB.
    layout = dict(zip(("B", "A"), (RESERVED, RESERVED + 32)))
    assert list(out) == [layout["A"], layout["B"], 0x3F, 7, int(SHARED_GENERIC_BASE) >> 32]


def test_the_program_records_the_shared_layout():
    text = program(_ADDRESSES)
    assert "'shared': [(32, 64), (12, 4)]" in text


def test_window_and_shared_address_on_the_threads_object():
    seen: dict[str, object] = {}

    def kernel(c, m0, buffer):
        seen["window"] = c.window
        ptr = c.dynamic_shared(np.int64(8), np.float32)
        seen["address"] = c.shared_address(ptr)
        view = c.shared_array(1, np.float32, 4, "#1")
        view.array[:] = 2.0
        seen["bytes"] = c.window.view(RESERVED, np.float32, 4).copy()
        yield from ()

    state = Launch("k", ("k.rs:1:1",), (1, 1, 1), (32, 1, 1), 64, False, shared_layout=((16, 16),), dynamic_align=128)
    run_group(state, kernel, [None], np.zeros((1, 3), np.int64))
    assert seen["window"].dynamic_offset == RESERVED + 128
    assert (seen["address"] == RESERVED + 136).all()
    assert (seen["bytes"] == 2.0).all()


def test_a_batch_of_blocks_keeps_its_own_buffers():
    state = Launch("k", ("k.rs:1:1",), (2, 1, 1), (32, 1, 1), 0, False, shared_layout=())
    assert Threads(state, np.zeros((2, 3), np.int64)).window is None


def test_an_integer_that_is_no_shared_address_is_refused_at_its_location():
    source = '''
use cuda_device::{kernel, thread};
#[kernel]
pub unsafe fn k(out: *mut u32) {
    let p = (out as u64) as *const u32;
    *out = *p;
}
'''
    with pytest.raises(UnsupportedOperation, match=r"other than shared memory.*\n.*k.rs:5"):
        run(source, 1, 32, [np.zeros(1, np.uint32)], schedule="warps")


def test_a_shared_cast_to_a_wider_misaligned_type_is_located():
    source = '''
use cuda_device::{kernel, thread, SharedArray};
#[kernel]
pub unsafe fn k(out: *mut u32) {
    static mut A: SharedArray<u8, 16, 16> = SharedArray::UNINIT;
    let p = (core::ptr::addr_of!(A) as *const u8).add(2) as *const u32;
    *out = *p;
}
'''
    with pytest.raises(Exception, match=r"not aligned to 4 bytes"):
        launch(program(source), "k", 1, 32, [np.zeros(1, np.uint32)], schedule="warps")
