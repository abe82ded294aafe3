"""Race detection: planted races are reported with both threads and both source locations; correctly
synchronised kernels (the examples, a barrier-separated exchange) produce no report."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator import RaceDetected, launch
from tests.unit.runtime.emulator.helpers import example, run

USE = "use cuda_device::{kernel, thread, SharedArray};\n"


def test_shared_memory_read_without_barrier_is_a_race():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 64> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = x[t];
    out[t] = S[(t + 1) % 64];
}"""
    with pytest.raises(RaceDetected) as info:
        run(src, (1,), (64,), [np.ones(64, np.float32), np.zeros(64, np.float32)])
    message = str(info.value)
    assert "data race on shared array #1" in message and "with no sync_threads between them" in message
    assert "block (0, 0, 0), thread (1, 0, 0) writes it at k.rs:6:5" in message
    assert "block (0, 0, 0), thread (0, 0, 0) reads it at k.rs:7:14" in message
    # As a Diagnostic: the race at the second access, a note at each of the two.
    (race,) = info.value.diagnostics
    assert str(race.loc) == "k.rs:7:14" and race.message.startswith("kernel `k`: data race on shared array #1")
    assert [(n.severity, str(n.loc)) for n in race.notes] == [("note", "k.rs:6:5"), ("note", "k.rs:7:14")]


def test_the_same_exchange_with_a_barrier_is_race_free():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 64> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = x[t];
    thread::sync_threads();
    out[t] = S[(t + 1) % 64];
    thread::sync_threads();
    S[t] = 0.0;
}"""
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    run(src, (1,), (64,), [x, out])
    np.testing.assert_array_equal(out, np.roll(x, -1))


def test_write_after_read_in_one_interval_is_a_race():
    src = USE + """#[kernel]
pub unsafe fn k(out: &mut [f32]) {
    static mut S: SharedArray<f32, 32> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = 1.0;
    thread::sync_threads();
    let v = S[31 - t];
    S[t] = v + 1.0;
    out[t] = v;
}"""
    with pytest.raises(RaceDetected) as info:
        run(src, (1,), (32,), [np.zeros(32, np.float32)])
    assert "writes it at k.rs:9:5" in str(info.value) and "reads it at k.rs:8:13" in str(info.value)


def test_global_write_write_in_one_instruction():
    src = USE + """#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    out[0] = thread::threadIdx_x();
}"""
    with pytest.raises(RaceDetected) as info:
        run(src, (1,), (4,), [np.zeros(1, np.uint32)])
    message = str(info.value)
    assert "data race on kernel parameter 0 of `k`, element 0, in the same instruction" in message
    assert "thread (0, 0, 0) writes it at k.rs:4:5" in message and "thread (1, 0, 0) writes it" in message


def test_global_read_of_another_blocks_write_is_a_race():
    src = USE + """#[kernel]
pub unsafe fn k(data: &mut [f32]) {
    let i = thread::index_1d().get();
    let n = data.len();
    data[i] = 1.0;
    let other = data[(i + 32) % n];
    data[i] = other + 1.0;
}"""
    with pytest.raises(RaceDetected) as info:
        run(src, (4,), (32,), [np.zeros(128, np.float32)])
    message = str(info.value)
    assert "from different blocks" in message
    assert "reads it at k.rs:7:17" in message and "writes it at k.rs:" in message


def test_race_checks_can_be_turned_off():
    src = USE + """#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    out[0] = 7;
}"""
    out = np.zeros(1, np.uint32)
    run(src, (2,), (8,), [out], check_races=False)
    assert out[0] == 7


@pytest.mark.parametrize("seed", [1, 2])
def test_shared_memory_examples_are_race_free_in_any_block_order(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal((48, 40)).astype(np.float32), rng.standard_normal((40, 64)).astype(np.float32)
    c = np.zeros((48, 64), np.float32)
    launch(example("sgemm_tiled", sgemm_tiled=("64",)), "sgemm_tiled_64", (4, 3), (16, 16), [a, b, 40, c],
           shuffle_blocks=seed)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)
    x = rng.standard_normal(1000).astype(np.float32)
    out = np.zeros(4, np.float32)
    launch(example("block_reduce"), "block_sum", (4,), (256,), [x, out], shuffle_blocks=seed)
    np.testing.assert_allclose(out, np.r_[x, np.zeros(24, np.float32)].reshape(4, 256).sum(1), rtol=1e-5, atol=1e-4)


def test_warp_synchronous_shared_memory_needs_sync_mask():
    body = """    static mut S: SharedArray<u32, 32> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = t as u32;
    {sync}
    out[t] = S[31 - t];
}"""
    head = "use cuda_device::{kernel, thread, warp, SharedArray};\n#[kernel]\npub unsafe fn k(out: &mut [u32]) {\n"
    out = np.zeros(32, np.uint32)
    run(head + body.replace("{sync}", "warp::sync_mask(0xffffffff);"), (1,), (32,), [out])
    np.testing.assert_array_equal(out, 31 - np.arange(32))
    with pytest.raises(RaceDetected, match="with no sync_threads between them"):
        run(head + body.replace("{sync}", ""), (1,), (32,), [out])
