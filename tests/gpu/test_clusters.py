"""Clusters and cooperative launches on the GPU, against numpy: a distributed-shared-memory exchange inside
2-block clusters, and a two-phase kernel whose second phase reads what other blocks wrote before grid::sync
(run several times, so the grid barrier's workspace handling is exercised across launches)."""

from __future__ import annotations

import numpy as np
import pytest

import oxide
from oxide.diagnostics import OxideError

SOURCE = """
use core::ptr::{addr_of, addr_of_mut};
use cuda_device::{cluster, cluster_launch, cooperative_launch, grid, kernel, thread, DisjointSlice, SharedArray};

#[kernel]
#[cluster_launch(2, 1, 1)]
pub unsafe fn neighbour(mut out: DisjointSlice<u32>) {
    static mut SLOT: SharedArray<u32, 1> = SharedArray::UNINIT;
    if thread::threadIdx_x() == 0 {
        (addr_of_mut!(SLOT) as *mut u32).write(thread::blockIdx_x() * 100 + 7);
    }
    cluster::cluster_sync();
    let other = (cluster::block_rank() + 1) % cluster::cluster_size();
    let v = cluster::dsmem_read_u32(addr_of!(SLOT) as *const u32, other);
    cluster::cluster_sync();  // keep every block's shared memory alive until all have read it
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = v; }
}

#[kernel]
#[cooperative_launch]
pub unsafe fn rotate(buf: &mut [u32], mut out: DisjointSlice<u32>, n: u32) {
    let i = thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x();
    if i < n { buf[i as usize] = i * 3 + 1; }
    grid::sync();
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = buf[((i + 1) % n) as usize]; }
}
"""


@pytest.fixture(scope="module")
def module(cuda, tmp_path_factory):
    _, device = cuda.cuDeviceGet(0)
    major = cuda.cuDeviceGetAttribute(cuda.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device)[1]
    if major < 9:
        pytest.skip("thread-block clusters need sm_90")
    source = tmp_path_factory.mktemp("clusters") / "clusters.rs"
    source.write_text(SOURCE)
    try:
        return oxide.load(source, target="gpu")
    except OxideError as exc:
        pytest.skip(f"no compiler here and no cached build: {exc}")


def test_cluster_blocks_read_each_others_shared_memory(module):
    blocks, threads = 8, 64
    out = module.zeros(blocks * threads, np.uint32)
    module.neighbour.unchecked[blocks, threads](out)
    block = np.arange(blocks * threads) // threads
    partner = block ^ 1  # clusters of 2: rank r reads rank (r + 1) % 2
    assert np.array_equal(out.get(), (partner * 100 + 7).astype(np.uint32))


def test_grid_sync_orders_the_two_phases(module):
    blocks, threads = 16, 128
    n = blocks * threads
    for _ in range(3):
        buf, out = module.zeros(n, np.uint32), module.zeros(n, np.uint32)
        module.rotate.unchecked[blocks, threads](buf, out, n)
        expected = (np.roll(np.arange(n), -1) * 3 + 1).astype(np.uint32)
        assert np.array_equal(out.get(), expected)
