"""Cluster and cooperative launches against the fake driver: cuLaunchKernelEx with the cluster-dimension and
cooperative attributes, a zeroed per-launch grid-barrier workspace as the hidden last parameter, and the typed
errors for a grid that is not whole clusters, a cluster that fits nowhere and a grid that cannot be
co-resident, all raised before anything launches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from oxide.runtime import LaunchContractError
from oxide.runtime.artifact import Artifact
from oxide.runtime.module import load

SOURCE = """
use cuda_device::{cluster, cluster_launch, cooperative_launch, grid, kernel, thread, DisjointSlice};

#[kernel]
#[cluster_launch(2, 1, 1)]
pub fn ranks(mut out: DisjointSlice<u32>) {
    cluster::cluster_sync();
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = cluster::block_rank(); }
}

#[kernel]
#[cooperative_launch]
pub fn two_phase(mut out: DisjointSlice<u32>, x: u32) {
    grid::sync();
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = x; }
}
"""


@pytest.fixture(scope="module")
def cluster_artifact(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import oxide

    out = tmp_path_factory.mktemp("cluster")
    (out / "cluster.rs").write_text(SOURCE)
    oxide.build(out / "cluster.rs", out_dir=out / "cluster", chips=["sm_90"])
    return out / "cluster"


def test_the_signature_carries_the_cluster_shape_and_the_cooperative_flag(cluster_artifact: Path) -> None:
    kernels = {k.name: k for k in Artifact.load(cluster_artifact).kernels}
    assert kernels["ranks"].cluster == [2, 1, 1] and not kernels["ranks"].cooperative
    assert kernels["two_phase"].cooperative and kernels["two_phase"].cluster == []
    assert [p.name for p in kernels["two_phase"].params] == ["out", "x"]  # the workspace is no Rust parameter


def test_a_cluster_kernel_launches_with_the_cluster_dimension(fake: Any, cluster_artifact: Path) -> None:
    module = load(cluster_artifact, target="gpu")
    out = module.zeros(256, np.uint32)
    module.ranks.unchecked[4, 64](out)
    (launch,) = fake.launches
    assert launch["grid"] == (4, 1, 1) and launch["block"] == (64, 1, 1)
    dim = launch["attributes"]["CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION"].clusterDim
    assert (dim.x, dim.y, dim.z) == (2, 1, 1)


def test_a_grid_of_partial_clusters_is_refused_before_launch(fake: Any, cluster_artifact: Path) -> None:
    module = load(cluster_artifact, target="gpu")
    with pytest.raises(LaunchContractError, match=r"`grid` expects a multiple of the cluster shape \(2, 1, 1\).*"
                                                  r"got \(3, 1, 1\)"):
        module.ranks.unchecked[3, 64](module.zeros(192, np.uint32))
    assert fake.launches == []


def test_a_cluster_that_fits_nowhere_is_refused_before_launch(fake: Any, cluster_artifact: Path) -> None:
    fake.active_clusters = 0
    module = load(cluster_artifact, target="gpu")
    with pytest.raises(LaunchContractError, match=r"a cluster of 2 blocks that fits on the device, got none fits "
                                                  r"with 1024 threads and 0 bytes"):
        module.ranks.unchecked[2, 1024](module.zeros(2048, np.uint32))
    assert fake.launches == []


def test_a_cooperative_launch_passes_a_zeroed_workspace_of_its_own(fake: Any, cluster_artifact: Path) -> None:
    seen = []
    record = fake.cuLaunchKernelEx

    def read_workspace(config: Any, fn: int, params: int, extra: int) -> tuple:
        result = record(config, fn, params, extra)
        workspace = fake.launches[-1]["params"][-1]
        seen.append((workspace, list((np.ctypeslib.ctypes.c_uint32 * 2).from_address(workspace))))
        return result

    fake.cuLaunchKernelEx = read_workspace
    module = load(cluster_artifact, target="gpu")
    out = module.zeros(128, np.uint32)
    module.two_phase.unchecked[2, 64](out, 7)
    module.two_phase.unchecked[2, 64](out, 8)
    first, second = fake.launches
    assert first["attributes"]["CU_LAUNCH_ATTRIBUTE_COOPERATIVE"].cooperative == 1
    assert first["params"][:3] == [out.ptr, 128, 7] and second["params"][2] == 8
    assert [words for _, words in seen] == [[0, 0], [0, 0]]
    assert not any(address in fake.memory for address, _ in seen)  # each workspace freed after its launch


def test_a_cooperative_grid_that_cannot_be_co_resident_is_refused(fake: Any, cluster_artifact: Path) -> None:
    fake.blocks_per_sm = 1
    module = load(cluster_artifact, target="gpu")
    with pytest.raises(LaunchContractError, match=r"at most 132 blocks for a cooperative launch \(1 per "
                                                  r"multiprocessor with 64 threads.*got 133"):
        module.two_phase.unchecked[133, 64](module.zeros(133 * 64, np.uint32), 1)
    assert fake.launches == []
    module.two_phase.unchecked[132, 64](module.zeros(132 * 64, np.uint32), 1)
    assert len(fake.launches) == 1
