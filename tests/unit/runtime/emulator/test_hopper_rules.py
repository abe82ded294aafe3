"""The emulator's rules for the Hopper ops: mbarriers (waits suspend the warp), TMA copies through a
TensorMap, the split cluster barrier, distributed shared memory and remote mbarrier arrives, the cluster
registers, grid sync, and the located errors of each (deadlocks included); plus the Hopper examples."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from oxide.runtime.emulator import Deadlock, LaunchError, UnsupportedOperation, launch
from oxide.runtime.emulator.errors import BarrierDivergence
from oxide.runtime.emulator.mbarrier import MbarrierError
from oxide.runtime.emulator.shared_window import SharedMemoryError
from oxide.runtime.tensor_map import TensorMap
from tests.unit.runtime.emulator.helpers import EXAMPLES, program

_USE = '''use cuda_device::barrier::*;
use cuda_device::tma::*;
use cuda_device::{cluster, cluster_launch, cooperative_launch, grid, kernel, thread, SharedArray};
'''


def _run(body: str, grid, block, args, **options):
    launch(program(_USE + body), "k", grid, block, args, **options)


@pytest.mark.parametrize("stem", ["cluster_reduce", "grid_sync_reduce", "tma_copy"])
def test_hopper_examples_pass_on_the_emulator(stem, capsys):
    spec = importlib.util.spec_from_file_location(stem, EXAMPLES / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main() == 0
    assert "PASSED" in capsys.readouterr().out


_PRODUCER = '''
#[kernel]
pub unsafe fn k(out: *mut u32, arrivals: u32) {
    static mut BAR: Barrier = Barrier::UNINIT;
    static mut DATA: SharedArray<u32, 32> = SharedArray::UNINIT;
    let t = thread::threadIdx_x();
    if t == 0 { mbarrier_init(&raw mut BAR, arrivals); }
    thread::sync_threads();
    if t >= 32 {
        // Consumers (warp 1) wait for the phase the producer warp completes.
        mbarrier_wait_parity(&raw const BAR, 0);
        *out.add((t - 32) as usize) = DATA[(t - 32) as usize];
    } else {
        DATA[t as usize] = t * 3;
        let _ = mbarrier_arrive(&raw const BAR);
    }
}
'''


def test_an_mbarrier_wait_releases_consumers_after_the_producers_arrive():
    out = np.zeros(32, np.uint32)
    _run(_PRODUCER, 1, 64, [out, 32])
    assert list(out) == [3 * t for t in range(32)]


def test_a_phase_that_never_completes_is_a_located_deadlock():
    with pytest.raises(Deadlock, match=r"(?s)waits for the mbarrier at shared address 0x\w+ to complete the phase of "
                                       r"parity 0 .*1 of 33 arrivals.*k.rs:\d+"):
        _run(_PRODUCER, 1, 64, [np.zeros(32, np.uint32), 33])


_TMA = '''
#[kernel]
pub unsafe fn k(map: *const TmaDescriptor, out: *mut f32, expect: u32, early: u32) {
    static mut TILE: SharedArray<f32, 64, 128> = SharedArray::UNINIT;
    static mut BAR: Barrier = Barrier::UNINIT;
    let t = thread::threadIdx_x();
    if t == 0 {
        mbarrier_init(&raw mut BAR, 1);
        fence_proxy_async_shared_cta();
        cp_async_bulk_tensor_2d_g2s(&raw mut TILE as *mut u8, map, 4, 6, &raw mut BAR);
        if early != 0 { *out = TILE[0]; }
        let tok = mbarrier_arrive_expect_tx(&raw const BAR, 1, expect);
        while !mbarrier_try_wait(&raw const BAR, tok) {}
        let mut k = 0;
        while k < 64 { *out.add(k) = TILE[k]; k += 1; }
    }
}
'''


def test_a_tma_load_fills_the_tile_with_zeros_outside_the_tensor():
    a = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = np.full(64, -1, np.float32)
    _run(_TMA, 1, 32, [TensorMap(a, box=(8, 8)), out, 256, 0])
    expected = np.zeros((8, 8), np.float32)
    expected[:2, :4] = a[6:8, 4:8]
    np.testing.assert_array_equal(out.reshape(8, 8), expected)


def test_reading_a_tile_before_its_barrier_completes_is_located():
    a = np.zeros((8, 8), np.float32)
    with pytest.raises(SharedMemoryError, match=r"(?s)TMA copy has not completed.*k.rs:14"):
        _run(_TMA, 1, 32, [TensorMap(a, box=(8, 8)), np.zeros(64, np.float32), 256, 1])


def test_a_tx_count_that_never_matches_is_a_deadlock_that_says_so():
    a = np.zeros((8, 8), np.float32)
    with pytest.raises(Deadlock, match="copies completed more bytes than expect_tx announced"):
        _run(_TMA, 1, 32, [TensorMap(a, box=(8, 8)), np.zeros(64, np.float32), 128, 0])


def test_a_tensor_map_argument_must_be_a_tensor_map():
    with pytest.raises(LaunchError, match="is a tensor map: pass an oxide.runtime.TensorMap"):
        _run(_TMA, 1, 32, [np.zeros(4), np.zeros(64, np.float32), 256, 0])


def test_mbarrier_misuse_is_located():
    body = '''
#[kernel]
pub unsafe fn k(out: *mut u32) {
    static mut BAR: Barrier = Barrier::UNINIT;
    let _ = mbarrier_arrive(&raw const BAR);
}
'''
    with pytest.raises(MbarrierError, match=r"(?s)uninitialised mbarrier.*k.rs:\d+"):
        _run(body, 1, 32, [np.zeros(1, np.uint32)])


_CLUSTER = '''
#[kernel]
#[cluster_launch(2, 1, 1)]
pub unsafe fn k(out: *mut u32) {
    static mut VALUE: SharedArray<u32, 1> = SharedArray::UNINIT;
    static mut BAR: Barrier = Barrier::UNINIT;
    let t = thread::threadIdx_x();
    let rank = cluster::block_rank();
    if t == 0 {
        VALUE[0] = 100 + rank;
        mbarrier_init(&raw mut BAR, 1);
        fence_mbarrier_init_release_cluster();
    }
    cluster::cluster_sync();
    if t == 0 {
        let other = cluster::map_shared_rank(core::ptr::addr_of!(VALUE) as *const u32, 1 - rank);
        *out.add((thread::blockIdx_x() * 4) as usize) = *other;
        *out.add((thread::blockIdx_x() * 4 + 1) as usize) = cluster::cluster_size();
        *out.add((thread::blockIdx_x() * 4 + 2) as usize) = cluster::cluster_idx();
        let remote = cluster::map_shared_rank(&raw mut BAR as *mut u64, 1 - rank);
        mbarrier_arrive_cluster(remote as u64);
        mbarrier_wait_parity(&raw const BAR, 0);
        *out.add((thread::blockIdx_x() * 4 + 3) as usize) = 1;
    }
    cluster::cluster_sync();
}
'''


def test_cluster_blocks_read_each_other_and_arrive_on_each_others_barriers():
    out = np.zeros(16, np.uint32)
    _run(_CLUSTER, 4, 32, [out])
    assert out.reshape(4, 4).tolist() == [[101, 2, 0, 1], [100, 2, 0, 1], [101, 2, 1, 1], [100, 2, 1, 1]]


def test_a_grid_of_partial_clusters_is_refused():
    with pytest.raises(LaunchError, match="not a whole number of clusters"):
        _run(_CLUSTER, 3, 32, [np.zeros(16, np.uint32)])


def test_cluster_ops_need_a_cluster_shape():
    body = '''
#[kernel]
pub unsafe fn k(out: *mut u32) {
    cluster::cluster_sync();
}
'''
    with pytest.raises(LaunchError, match=r"(?s)cluster_arrive in a kernel launched without a cluster shape.*k.rs"):
        _run(body, 2, 32, [np.zeros(1, np.uint32)])


def test_a_cluster_wait_without_an_arrive_is_reported():
    body = '''
#[kernel]
#[cluster_launch(2, 1, 1)]
pub unsafe fn k(out: *mut u32) {
    cluster::barrier_cluster_wait();
}
'''
    with pytest.raises(BarrierDivergence, match="waits on the cluster barrier without arriving first"):
        _run(body, 2, 32, [np.zeros(1, np.uint32)])


def test_grid_sync_outside_a_cooperative_kernel_is_refused_at_the_op():
    from oxide.backend.emulator import emit_program
    from oxide.ir.rules import LoweringError
    from tests.unit.runtime.emulator.helpers import _context

    # The frontend refuses grid::sync without #[cooperative_launch]; IR written by hand reaches the rule.
    text = '''
gpu.module @kernels {
  gpu.func @k(%w: !simt.ptr<i32, 1 : i64>) kernel {
    "simt.grid_sync"(%w) : (!simt.ptr<i32, 1 : i64>) -> ()
    gpu.return
  }
}
'''
    from mlir import ir

    with _context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        with pytest.raises(LoweringError, match="not a cooperative launch"):
            emit_program(module)


def test_a_kernel_that_blocks_is_refused_in_lock_step():
    with pytest.raises(LaunchError, match="runs only with schedule=\"warps\""):
        _run(_PRODUCER, 1, 64, [np.zeros(32, np.uint32), 32], schedule="lockstep")


def test_the_runtime_refuses_a_partial_cluster_grid_like_the_gpu(tmp_path):
    import oxide
    from oxide.runtime.errors import LaunchContractError

    module = oxide.load(EXAMPLES / "cluster_reduce.rs", chips=["sm_90a"], target="cpu")
    with pytest.raises(LaunchContractError, match="cluster"):
        module.cluster_sum[6, 256](np.zeros(10, np.float32), np.zeros(2, np.float32))
