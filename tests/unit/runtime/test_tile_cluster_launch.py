"""How the tile runtime launches a GEMM built with a thread-block cluster (docs/tile-hopper.md, "Clusters"):
the clustered entries' functions carry the cluster dimensions (so the GPU executor launches them through
cuLaunchKernelEx) and their persistent grid is a whole number of clusters; the mma.sync sibling launches
without one. Checked on the artifact fixture with a recording executor (no GPU)."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

from oxide.runtime.artifact import Artifact
from oxide.runtime.tile_kernel import TileKernel

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "tile_sm90a_cluster_2x1" / "gemm.oxide.json"


class _Executor:
    """Records the functions it makes and the launches it is asked for."""

    target, chip, device = "gpu", "sm_90a", None

    def __init__(self) -> None:
        self.limits = types.SimpleNamespace(multiprocessors=132, max_grid=(2**31 - 1, 65535, 65535))
        self.functions: dict[str, Any] = {}
        self.launches: list[tuple[Any, Any]] = []

    def function(self, spec: Any) -> Any:
        fn = self.functions[spec.entry] = types.SimpleNamespace(spec=spec, allow_dynamic_shared=lambda n: None)
        return fn

    def launch(self, fn: Any, config: Any, abi: list[Any], stream: Any) -> None:
        self.launches.append((fn.spec, config))

    def active_clusters(self, fn: Any, block: tuple[int, int, int], shared: int) -> int | None:
        return None


@pytest.fixture
def kernel() -> tuple[TileKernel, _Executor]:
    spec = next(k for k in Artifact.load(FIXTURE).kernels if k.entry == "gemm_128_256_64")
    executor = _Executor()
    return TileKernel(spec, executor), executor


@pytest.mark.parametrize("tiles,grid", [((32, 16, 1), (132, 1, 1)), ((3, 2, 1), (8, 1, 1)), ((1, 1, 1), (2, 1, 1))])
def test_a_clustered_entry_launches_whole_clusters(kernel, tiles, grid):
    tile_kernel, executor = kernel
    variant = tile_kernel.spec.tile["variants"][0]
    tile_kernel._enqueue(types.SimpleNamespace(variant=variant, grid=tiles, abi=[], staged=[]), None)
    spec, config = executor.launches[-1]
    assert spec.cluster == [2, 1, 1] and tuple(config.grid) == grid and tuple(config.block) == (384, 1, 1)


def test_the_kmajor_entry_is_clustered_too(kernel):
    tile_kernel, executor = kernel
    variant = next(v for v in tile_kernel.spec.tile["variants"] if v["entry"].endswith("$kmajor_b"))
    tile_kernel._enqueue(types.SimpleNamespace(variant=variant, grid=(5, 5, 1), abi=[], staged=[]), None)
    spec, config = executor.launches[-1]
    assert spec.cluster == [2, 1, 1] and tuple(config.grid) == (30, 1, 1)  # 3 x 5 cluster tiles


def test_the_mma_sync_sibling_takes_no_cluster():
    spec = next(k for k in Artifact.load(FIXTURE).kernels if k.entry == "gemm_128_128_64")
    executor = _Executor()
    tile_kernel = TileKernel(spec, executor)
    variant = tile_kernel.spec.tile["variants"][-1]
    assert variant["entry"].endswith("$mma_sync")
    tile_kernel._enqueue(types.SimpleNamespace(variant=variant, grid=(3, 2, 1), abi=[], staged=[]), None)
    spec, config = executor.launches[-1]
    assert spec.cluster == [] and tuple(config.grid) == (3, 2, 1)


def test_the_persistent_grid_asks_the_device_how_many_clusters_run_at_once(kernel):
    tile_kernel, executor = kernel
    asked = []

    def active_clusters(fn, block, shared):
        asked.append((fn.spec.cluster, block, shared))
        return 60  # e.g. GPCs whose SM counts leave some SMs out of every pair
    executor.active_clusters = active_clusters
    variant = tile_kernel.spec.tile["variants"][0]
    tile_kernel._enqueue(types.SimpleNamespace(variant=variant, grid=(32, 16, 1), abi=[], staged=[]), None)
    assert tuple(executor.launches[-1][1].grid) == (120, 1, 1)
    assert asked == [([2, 1, 1], (384, 1, 1), variant["dynamic_shared"])]
