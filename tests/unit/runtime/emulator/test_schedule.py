"""Scheduled execution (one coroutine per warp): warps progress independently, group barriers release when
the whole group has arrived, a deadlock is a located report naming every blocked wait, and the existing
kernels give bit-identical results in both modes."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.backend.emulator import emit_program
from oxide.backend.emulator import scheduling
from oxide.dialects import simt
from oxide.frontends.simt.compile import compile_rust
from oxide.runtime.emulator import BarrierDivergence, Deadlock, LaunchError, launch
from oxide.runtime.emulator.schedule import (
    BlockSync,
    ClusterSync,
    GridSync,
    NamedSync,
    Until,
    arrive_named,
    cluster_rank,
    residency_groups,
    run_group,
)
from oxide.runtime.emulator.threads import Launch
from tests.unit.runtime.emulator.helpers import _context, example, run

LOCS = ("p.rs:3:5", "p.rs:7:9", "p.rs:9:9")


def _launch(grid: int = 1, block: int = 64) -> Launch:
    return Launch("k", LOCS, (grid, 1, 1), (block, 1, 1), 0, check_races=False)


def _blocks(n: int) -> np.ndarray:
    return np.array([[b, 0, 0] for b in range(n)], np.int64)


def test_producer_and_consumer_warps_in_one_if_progress_independently():
    # Warp 1 waits for what warp 0 produces later in the same kernel: lock step would run one branch to
    # completion first; scheduled, the consumer suspends and resumes when the flag is set.
    box: dict[str, int] = {}
    order: list[str] = []

    def kernel(c, m0):
        if m0[0]:  # warp 0: producer
            yield Until(m0, 0, lambda: "go" in box, lambda: "go")
            box["data"] = 42
            order.append("produced")
        else:  # warp 1: consumer
            box["go"] = 1
            yield Until(m0, 1, lambda: "data" in box, lambda: "data")
            order.append(f"consumed {box['data']}")

    run_group(_launch(), kernel, [], _blocks(1))
    assert order == ["produced", "consumed 42"]


def test_block_sync_releases_only_when_every_warp_arrived():
    seen: list[tuple[int, int]] = []
    count = [0]

    def kernel(c, m0):
        warp = int(np.flatnonzero(m0)[0]) // 32
        count[0] += 1
        yield BlockSync(m0, 0)
        seen.append((warp, count[0]))

    run_group(_launch(block=96), kernel, [], _blocks(1))
    assert sorted(seen) == [(0, 3), (1, 3), (2, 3)]


def test_a_named_barrier_joins_only_the_warps_it_counts():
    # Warps 0-1 meet at barrier 1 (64 threads) while warps 2-3 wait for something warp 0 does after it.
    log: list[str] = []

    def kernel(c, m0):
        warp = int(np.flatnonzero(m0)[0]) // 32
        if warp < 2:
            yield NamedSync(m0, 0, 1, 64)
            log.append(f"past {warp}")
        else:
            yield Until(m0, 1, lambda: len(log) >= 2, lambda: "both consumers")
            log.append(f"then {warp}")

    run_group(_launch(block=128), kernel, [], _blocks(1))
    assert sorted(log[:2]) == ["past 0", "past 1"] and sorted(log[2:]) == ["then 2", "then 3"]


def test_more_warps_than_a_named_barrier_counts_start_its_next_round():
    rounds: list[int] = []

    def kernel(c, m0):
        yield NamedSync(m0, 0, 2, 64)
        rounds.append(int(np.flatnonzero(m0)[0]) // 32)

    run_group(_launch(block=128), kernel, [], _blocks(1))
    assert sorted(rounds) == [0, 1, 2, 3]


def test_arrivals_count_towards_a_named_barrier_without_waiting():
    # Warps 2-3 arrive (bar.arrive) and go on; warps 0-1 wait at barrier 3 (128 threads) until they have.
    log: list[str] = []

    def kernel(c, m0):
        warp = int(np.flatnonzero(m0)[0]) // 32
        if warp < 2:
            yield NamedSync(m0, 0, 3, 128)
            log.append(f"released {warp}")
        else:
            yield Until(m0, 1, lambda: True, lambda: "a turn")  # the waiters get there first
            arrive_named(c, m0, 1, 3, 128)
            log.append(f"arrived {warp}")

    run_group(_launch(block=128), kernel, [], _blocks(1))
    assert sorted(log[:2]) == ["arrived 2", "arrived 3"] and sorted(log[2:]) == ["released 0", "released 1"]


def test_an_arrival_no_wait_consumes_is_an_error():
    def kernel(c, m0):
        if int(np.flatnonzero(m0)[0]) // 32 == 1:
            arrive_named(c, m0, 1, 2, 64)
        yield from ()

    with pytest.raises(BarrierDivergence, match=r"ended with 32 of named barrier 2's 64 threads arrived"):
        run_group(_launch(block=64), kernel, [], _blocks(1))


def test_a_named_barrier_short_of_its_count_is_a_deadlock():
    def kernel(c, m0):
        if m0[0]:
            yield NamedSync(m0, 2, 1, 96)

    with pytest.raises(Deadlock, match=r"waits for named barrier 1 \(96 threads\) at p.rs:9:9"):
        run_group(_launch(block=128), kernel, [], _blocks(1))


def test_deadlock_names_every_blocked_wait_with_its_threads_and_location():
    def kernel(c, m0):
        if m0[0]:
            yield Until(m0, 1, lambda: False, lambda: "mbarrier at shared address 0x10 to complete phase 0")
        else:
            yield Until(m0, 2, lambda: False, lambda: "mbarrier at shared address 0x18 to complete phase 3")

    with pytest.raises(Deadlock) as info:
        run_group(_launch(), kernel, [], _blocks(1))
    text = str(info.value)
    assert "kernel `k`: deadlock" in text and "2 blocked" in text
    assert ("block (0, 0, 0), threads (0, 0, 0)..(31, 0, 0) (32 threads) (warp 0) waits for mbarrier at shared "
            "address 0x10 to complete phase 0 at p.rs:7:9") in text
    assert "threads (32, 0, 0)..(63, 0, 0) (32 threads) (warp 1) waits for mbarrier at shared address 0x18" in text
    assert str(info.value.diagnostics[0].loc).startswith("p.rs:7:9")


def test_sync_threads_with_a_finished_warp_is_a_barrier_divergence():
    def kernel(c, m0):
        if not m0[0]:
            yield BlockSync(m0, 1)

    with pytest.raises(BarrierDivergence, match="sync_threads reached by 32 of the block's 64 threads"):
        run_group(_launch(), kernel, [], _blocks(1))


def test_grid_sync_joins_every_block_and_cluster_sync_only_its_cluster():
    log: list[str] = []

    def kernel(c, m0):
        block = int(c.bid[0])
        log.append(f"before {block}")
        yield ClusterSync(m0, 0)
        log.append(f"cluster {block}")
        yield GridSync(m0, 1)
        log.append(f"after {block}")

    state = Launch("k", LOCS, (4, 1, 1), (32, 1, 1), 0, check_races=False)
    run_group(state, kernel, [], _blocks(4), cluster=(2, 1, 1))
    # Every block passes the grid barrier only after all four reached it.
    assert all(e.startswith(("before", "cluster")) for e in log[:8]) and log[8:] == [f"after {b}" for b in range(4)]


def test_residency_groups_and_cluster_ranks():
    blocks = np.array([[x, y, 0] for y in range(2) for x in range(4)], np.int64)
    groups = residency_groups(blocks, (2, 2, 1), whole_grid=False)
    assert [g.tolist() for g in groups] == [[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
                                            [[2, 0, 0], [3, 0, 0], [2, 1, 0], [3, 1, 0]]]
    assert [cluster_rank(b, (2, 2, 1)) for b in groups[1]] == [0, 1, 2, 3]
    assert len(residency_groups(blocks, None, whole_grid=True)) == 1
    assert len(residency_groups(blocks, None, whole_grid=False)) == 8


@pytest.mark.parametrize("stem, entry, args", [
    ("block_reduce", "block_sum", "reduce"),
    ("sgemm_tiled", "sgemm_tiled_64", "gemm"),
])
def test_examples_give_identical_results_in_both_modes(stem, entry, args):
    rng = np.random.default_rng(3)
    results = []
    for mode in ("lockstep", "warps"):
        if args == "reduce":
            x, out = rng.standard_normal(256 * 5 + 3).astype(np.float32), np.zeros(6, np.float32)
            launch(example(stem), entry, (6,), (256,), [x, out], schedule=mode)
        else:
            a, b, out = (rng.standard_normal((90, 70)).astype(np.float32),
                         rng.standard_normal((70, 64)).astype(np.float32), np.zeros((90, 64), np.float32))
            launch(example(stem, sgemm_tiled=("64",)), entry, (4, 6), (16, 16), [a, b, 70, out], schedule=mode)
        rng = np.random.default_rng(3)
        results.append(out)
    np.testing.assert_array_equal(results[0], results[1])


def test_divergent_sync_threads_is_reported_the_same_in_both_modes():
    src = """use cuda_device::{kernel, thread};
#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    let t = thread::threadIdx_x();
    if t < 40 {
        thread::sync_threads();
    }
    out[t as usize] = t;
}"""
    messages = []
    for mode in ("lockstep", "warps"):
        with pytest.raises(BarrierDivergence) as info:
            run(src, (1,), (64,), [np.zeros(64, np.uint32)], schedule=mode)
        messages.append(str(info.value))
    assert "sync_threads reached by 40 of the block's 64 threads" in messages[1] and "k.rs:6:9" in messages[1]


def test_program_generator_asks_for_warps_where_a_kernel_blocks(monkeypatch):
    src = """use cuda_device::{kernel, thread};
#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    let t = thread::threadIdx_x();
    thread::threadfence();
    out[t as usize] = t;
}"""
    with _context():
        plain = emit_program(compile_rust(src, "k.rs", _context()).module)
        # A blocking op class makes its kernels scheduled (the fence stands in for one here).
        monkeypatch.setitem(scheduling._BLOCKING, simt.ThreadFenceOp.OPERATION_NAME, False)
        blocking = emit_program(compile_rust(src, "k.rs", _context()).module)
    assert "'schedule'" not in plain and "'schedule': 'warps'" in blocking
    out = np.zeros(64, np.uint32)
    launch(blocking, "k", (1,), (64,), [out])  # runs scheduled by itself
    np.testing.assert_array_equal(out, np.arange(64))
    with pytest.raises(LaunchError, match="runs only with schedule=\"warps\""):
        launch(blocking, "k", (1,), (64,), [out], schedule="lockstep")
