"""Barriers, shared memory and warp collectives on the emulator, including the undefined cases it reports."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator import BarrierDivergence, WarpDivergence
from tests.unit.runtime.emulator.helpers import run

USE = "use cuda_device::{kernel, thread, warp, SharedArray};\n"


def test_barrier_reached_by_part_of_the_block_is_an_error():
    src = USE + """#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    let t = thread::threadIdx_x();
    if t < 16 {
        thread::sync_threads();
    }
    out[t as usize] = t;
}"""
    with pytest.raises(BarrierDivergence) as info:
        run(src, (2,), (48,), [np.zeros(48, np.uint32)])
    message = str(info.value)
    assert "kernel `k`, block (0, 0, 0), thread (16, 0, 0) (and 31 more threads)" in message
    assert "sync_threads reached by 16 of the block's 48 threads" in message
    assert "k.rs:6:9" in message


def test_barrier_in_uniform_loop_with_shared_memory_rotation():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[f32], out: &mut [f32], rounds: u32) {
    static mut S: SharedArray<f32, 100> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let n = thread::blockDim_x() as usize;
    let base = thread::blockIdx_x() as usize * n;
    S[t] = x[base + t];
    thread::sync_threads();
    for _r in 0..rounds {
        let v = S[(t + 1) % n];
        thread::sync_threads();
        S[t] = v;
        thread::sync_threads();
    }
    out[base + t] = S[t];
}"""
    x = np.random.default_rng(1).standard_normal(300).astype(np.float32)
    out = np.zeros(300, np.float32)
    run(src, (3,), (100,), [x, out, np.uint32(7)])
    np.testing.assert_array_equal(out, np.roll(x.reshape(3, 100), -7, axis=1).reshape(-1))


def test_warp_ops_on_a_partial_warp():
    # 40 threads: warp 1 has lanes 0..7 only; the missing lanes count as exited.
    src = USE + """#[kernel]
pub unsafe fn k(x: &[u32], out: &mut [u32]) {
    let t = thread::threadIdx_x() as usize;
    let v = x[t];
    let ballot = warp::ballot(v % 2 == 1);
    let down = warp::shuffle_down(v, 1);
    let all = warp::all(v < 1000);
    out[t * 4] = ballot;
    out[t * 4 + 1] = down;
    out[t * 4 + 2] = all as u32;
    out[t * 4 + 3] = warp::redux_sync_add(0xffffffff, v);
}"""
    x = np.random.default_rng(2).integers(0, 1000, 40).astype(np.uint32)
    out = np.zeros(160, np.uint32)
    run(src, (1,), (40,), [x, out])
    got = out.reshape(40, 4)
    odd = (x % 2 == 1).astype(np.uint64)
    ballots = [int(sum(odd[w * 32 + j] << j for j in range(min(32, 40 - w * 32)))) for w in range(2)]
    np.testing.assert_array_equal(got[:, 0], [ballots[t // 32] for t in range(40)])
    # Lane 31 of warp 0 and lane 7 of warp 1 read past their warp: the emulator gives their own value.
    expected_down = [x[t + 1] if t % 32 != 31 and t + 1 < 40 else x[t] for t in range(40)]
    np.testing.assert_array_equal(got[:, 1], expected_down)
    np.testing.assert_array_equal(got[:, 2], 1)
    sums = [int(x[:32].sum()), int(x[32:].sum())]
    np.testing.assert_array_equal(got[:, 3], [sums[t // 32] for t in range(40)])


def test_warp_shuffle_in_divergent_code_is_reported():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    let t = thread::threadIdx_x() as usize;
    if t < 20 {
        out[t] = warp::shuffle_xor_f32(x[t], 1);
    }
}"""
    with pytest.raises(WarpDivergence) as info:
        run(src, (1,), (32,), [np.ones(32, np.float32), np.zeros(32, np.float32)])
    assert "lane(s) [20, 21" in str(info.value) and "k.rs:6:18" in str(info.value)


def test_shuffle_variants_and_match():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[u32], out: &mut [u32]) {
    let t = thread::threadIdx_x() as usize;
    let v = x[t];
    out[t * 4] = warp::shuffle(v, 3);
    out[t * 4 + 1] = warp::shuffle_up(v, 2);
    out[t * 4 + 2] = warp::shuffle_xor(v, 5);
    out[t * 4 + 3] = warp::match_any_sync(0xffffffff, v % 4);
}"""
    x = np.random.default_rng(3).integers(0, 100, 64).astype(np.uint32)
    out = np.zeros(256, np.uint32)
    run(src, (1,), (64,), [x, out])
    got = out.reshape(64, 4)
    lane = np.arange(64) % 32
    base = np.arange(64) - lane
    np.testing.assert_array_equal(got[:, 0], x[base + 3])
    np.testing.assert_array_equal(got[:, 1], np.where(lane >= 2, x[np.arange(64) - 2], x))
    np.testing.assert_array_equal(got[:, 2], x[base + (lane ^ 5)])
    for t in range(64):
        same = [j for j in range(32) if x[base[t] + j] % 4 == x[t] % 4]
        assert got[t, 3] == sum(1 << j for j in same)
