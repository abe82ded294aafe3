"""Atomics on the emulator apply in a defined order: blocks in the order they run, threads in linear order."""

from __future__ import annotations

import numpy as np

from tests.unit.runtime.emulator.helpers import run

USE = "use cuda_device::atomic::{AtomicOrdering, DeviceAtomicU32, DeviceAtomicI32};\nuse cuda_device::{kernel, thread};\n"


def test_fetch_add_tickets_follow_thread_order():
    src = USE + """#[kernel]
pub unsafe fn k(counter: &[DeviceAtomicU32], out: &mut [u32]) {
    let i = thread::index_1d().get();
    if i < out.len() {
        out[i] = counter[0].fetch_add(1, AtomicOrdering::Relaxed);
    }
}"""
    counter, out = np.zeros(1, np.uint32), np.zeros(1000, np.uint32)
    run(src, (8,), (128,), [counter, out])
    assert counter[0] == 1000
    np.testing.assert_array_equal(out, np.arange(1000))
    counter[0] = 0
    run(src, (8,), (128,), [counter, out], shuffle_blocks=3)
    assert sorted(out) == list(range(1000)) and list(out) != list(range(1000))


def test_min_max_exchange_and_compare_exchange():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[i32], cells: &[DeviceAtomicI32], out: &mut [i32]) {
    let t = thread::threadIdx_x() as usize;
    let v = x[t];
    cells[0].fetch_min(v, AtomicOrdering::Relaxed);
    cells[1].fetch_max(v, AtomicOrdering::Relaxed);
    out[t] = cells[2].swap(v, AtomicOrdering::Relaxed);
    let won = match cells[3].compare_exchange(0, t as i32 + 1, AtomicOrdering::AcqRel, AtomicOrdering::Relaxed) {
        Ok(_) => 1,
        Err(_) => 0,
    };
    cells[4].fetch_add(won, AtomicOrdering::Relaxed);
}"""
    x = np.random.default_rng(1).integers(-10**6, 10**6, 100).astype(np.int32)
    cells = np.array([2**31 - 1, -2**31, -5, 0, 0], np.int32)
    out = np.zeros(100, np.int32)
    run(src, (1,), (100,), [x, cells, out])
    assert cells[0] == x.min() and cells[1] == x.max()
    np.testing.assert_array_equal(out, np.r_[-5, x[:-1]])  # each swap sees the previous thread's value
    assert cells[2] == x[-1]
    assert cells[3] == 1 and cells[4] == 1  # thread 0 wins the compare-exchange, alone


def test_histogram_of_many_collisions():
    src = USE + """#[kernel]
pub unsafe fn k(values: &[u32], bins: &[DeviceAtomicU32]) {
    let i = thread::index_1d().get();
    if i < values.len() {
        bins[(values[i] as usize) % bins.len()].fetch_add(values[i], AtomicOrdering::Relaxed);
    }
}"""
    values = np.random.default_rng(2).integers(0, 1 << 20, 7000).astype(np.uint32)
    bins = np.zeros(3, np.uint32)
    run(src, (28,), (256,), [values, bins])
    expected = [int(values[values % 3 == b].sum()) % 2**32 for b in range(3)]
    np.testing.assert_array_equal(bins, expected)


def test_block_atomics_on_shared_memory_per_block():
    src = """use cuda_device::atomic::{AtomicOrdering, BlockAtomicU32, DeviceAtomicU32};
use cuda_device::{kernel, thread, SharedArray};
#[kernel]
pub unsafe fn k(values: &[u32], bins: &[DeviceAtomicU32]) {
    static mut LOCAL: SharedArray<u32, 8> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    if t < 8 { LOCAL[t] = 0; }
    thread::sync_threads();
    let i = thread::index_1d().get();
    if i < values.len() {
        let cell = BlockAtomicU32::from_ptr(LOCAL.as_mut_ptr().add((values[i] % 8) as usize));
        cell.fetch_add(1, AtomicOrdering::Relaxed);
    }
    thread::sync_threads();
    if t < 8 { bins[t].fetch_add(LOCAL[t], AtomicOrdering::Relaxed); }
}"""
    values = np.random.default_rng(3).integers(0, 1000, 1000).astype(np.uint32)
    for blocks_per_batch in (1, None):
        bins = np.zeros(8, np.uint32)
        run(src, (8,), (128,), [values, bins], blocks_per_batch=blocks_per_batch)
        np.testing.assert_array_equal(bins, np.bincount(values % 8, minlength=8))
