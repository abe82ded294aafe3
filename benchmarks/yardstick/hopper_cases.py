"""The launches of cuda-oxide's Hopper examples, re-expressed in Python for hopper_run.py.

Each `Case` is one kernel launch an example's host code (`fn main` of its main.rs) makes: the same inputs,
grid, block, dynamic shared memory and tensor maps (the cluster shape and cooperative launch come from the
kernel's own attributes), and the check that host code applies to the result. A case's `run` returns the
launch's outputs by name so that hopper_run.py can compare the emulator's with the GPU's. Only facts of the
examples' host code (sizes, inputs, expected values) are restated here; no code of theirs is.

This module holds wgmma, wgmma_mma_bf16, tma_copy, tma_multicast, cluster and mcast_barrier_test;
hopper_coop_cases.py holds coop_groups_demo.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

from oxide.runtime import LaunchConfig, TensorMap, to_device

Outputs = dict[str, np.ndarray]


@dataclasses.dataclass
class Case:
    """One launch of one example kernel, or a kernel that is only compiled (`run` is None, `note` says why)."""

    example: str
    kernel: str
    launch: str  # grid/block/cluster as the host code launches it, for the report
    run: Callable[[Any], Outputs] | None
    check: Callable[[Outputs], list[str]] = lambda out: []
    note: str = ""


def launch(module: Any, kernel: str, grid: Any, block: Any, *args: Any, shared: int = 0) -> None:
    """Launch `kernel` as the host code does: no launch contract, the kernel's own cluster/cooperative attributes."""
    module.kernels[kernel].unchecked(*args, config=LaunchConfig.of(grid, block, shared))


def on_gpu(module: Any) -> bool:
    return module.target == "gpu"


def tensor_map(module: Any, array: np.ndarray, box: tuple[int, ...]) -> tuple[TensorMap, Any]:
    """A tiled tensor map as the examples encode it (no swizzle, no interleave, zero fill), of GPU memory on a
    GPU and of the numpy array on the emulator; returns the map and the memory it describes (kept alive)."""
    memory = to_device(array) if on_gpu(module) else array
    return TensorMap(memory, box=box), memory


def mismatches(got: np.ndarray, want: np.ndarray, what: str, atol: float = 0.0) -> list[str]:
    """[] when `got` equals `want` (within `atol` for floats), else one line naming the first difference."""
    bad = np.flatnonzero(~np.isclose(got, want, rtol=0, atol=atol)) if atol else np.flatnonzero(got != want)
    if bad.size == 0:
        return []
    i = int(bad[0])
    return [f"{what}: {bad.size} of {got.size} differ (first at [{i}]: {got.flat[i]!r}, expected {want.flat[i]!r})"]


# --- wgmma -------------------------------------------------------------------------------------------------


def _wgmma_sync(module: Any) -> Outputs:
    out = np.zeros(1, np.uint64)
    launch(module, "wgmma_sync_test", 1, 128, out, shared=256)
    return {"desc": out}


def _wgmma_check(out: Outputs) -> list[str]:
    # The host code requires swizzle bits 62-63 = 3 and prints the two byte-offset fields; make_smem_desc's
    # fixed encoding puts 8 (128 bytes >> 4) in both.
    desc = int(out["desc"][0])
    got = {"swizzle (bits 62-63)": (desc >> 62) & 3, "leading byte offset >> 4 (bits 16-29)": (desc >> 16) & 0x3FFF,
           "stride byte offset >> 4 (bits 32-45)": (desc >> 32) & 0x3FFF}
    want = dict(zip(got, (3, 8, 8)))
    return [f"descriptor {k} is {got[k]}, expected {want[k]}" for k in got if got[k] != want[k]]


def _descriptor_fields(value: int) -> str:
    return (f"0x{value:016x} (start {(value & 0x3FFF) << 4:#x}, LBO {((value >> 16) & 0x3FFF) << 4}, "
            f"SBO {((value >> 32) & 0x3FFF) << 4}, swizzle {(value >> 62) & 3})")


# --- tma_copy / tma_multicast ------------------------------------------------------------------------------

TENSOR = 256  # both TMA examples copy from a 256 x 256 f32 tensor holding 0, 1, 2, ...
TILE = 64


def _ramp() -> np.ndarray:
    return np.arange(TENSOR * TENSOR, dtype=np.float32).reshape(TENSOR, TENSOR)


def _tma_copy_2d(module: Any) -> Outputs:
    tmap, _memory = tensor_map(module, _ramp(), (TILE, TILE))
    out = np.zeros(TILE * TILE, np.float32)
    launch(module, "tma_copy_2d_test", (TILE * TILE) // 256, 256, tmap, out, np.int32(0), np.int32(0))
    return {"out": out}


def _tma_copy_2d_check(out: Outputs) -> list[str]:
    return mismatches(out["out"], _ramp()[:TILE, :TILE].reshape(-1), "tile (0, 0)", atol=1e-3)


def _tma_pipeline(module: Any) -> Outputs:
    tmap, _memory = tensor_map(module, _ramp(), (32, 32))
    out = np.zeros(256, np.uint32)
    launch(module, "tma_pipeline_test", 1, 256, tmap, out)
    return {"out": out}


def _tma_multicast(module: Any) -> Outputs:
    tmap, _memory = tensor_map(module, _ramp(), (TILE, TILE))
    out = np.zeros(4 * TILE * TILE, np.float32)
    launch(module, "tma_multicast_test", 4, 256, tmap, out, np.int32(TILE), np.int32(0))
    return {"out": out}


def _tma_multicast_check(out: Outputs) -> list[str]:
    tile = _ramp()[:TILE, TILE:2 * TILE].reshape(-1)
    return mismatches(out["out"], np.tile(tile, 4), "every CTA's copy of tile (x 64, y 0)", atol=1e-3)


# --- cluster -----------------------------------------------------------------------------------------------

CLUSTER = 4


def _u32_launch(kernel: str, n: int) -> Callable[[Any], Outputs]:
    """A kernel of the cluster example: `CLUSTER` blocks of 32 threads writing an n-element u32 buffer."""

    def run(module: Any) -> Outputs:
        out = np.zeros(n, np.uint32)
        launch(module, kernel, CLUSTER, 32, out)
        return {"out": out}

    return run


def _expect(values: list[int] | np.ndarray, what: str) -> Callable[[Outputs], list[str]]:
    want = np.asarray(values, np.uint32)
    return lambda out: mismatches(out["out"], want, what)


def _intrinsics_check(out: Outputs) -> list[str]:
    # The host code only prints these. Launched without a cluster, each block is a cluster of one: its
    # %cluster_ctaid is (0, 0, 0), %cluster_nctaid (1, 1, 1), its rank 0 and the cluster size 1.
    want = np.tile(np.array([0, 0, 0, 1, 1, 1, 0, 1], np.uint32), CLUSTER)
    return mismatches(out["out"], want, "cluster ctaid, nctaid, rank, size per block")


# --- mcast_barrier_test ------------------------------------------------------------------------------------

MCAST_ITERS = (4, 8, 16, 32, 64, 256, 1024)


def _mcast_loop(module: Any) -> Outputs:
    outs = {}
    for iters in MCAST_ITERS:
        out = np.zeros(CLUSTER, np.uint32)
        launch(module, "mcast_barrier_loop", CLUSTER, 32, out, np.uint32(iters))
        outs[f"iters={iters}"] = out
    return outs


def _mcast_check(out: Outputs) -> list[str]:
    return [line for iters in MCAST_ITERS
            for line in mismatches(out[f"iters={iters}"], np.full(CLUSTER, iters, np.uint32), f"{iters} iterations")]


def cases() -> list[Case]:
    """The launches of wgmma ... mcast_barrier_test, in the order their host code makes them."""
    never = "compiled only: the example's zero descriptors are not valid shared-memory descriptors, and it says " \
            "its kernels must not be launched"
    return [
        Case("wgmma", "wgmma_sync_test", "grid 1, block 128, 256 B dynamic shared", _wgmma_sync, _wgmma_check,
             note="the u64 descriptor of a 128-byte-aligned shared array (host code checks swizzle bits = 3)"),
        Case("wgmma_mma_bf16", "wgmma_mma_kernel", "-", None, note=never),
        Case("wgmma_mma_bf16", "wgmma_partial_wait_kernel", "-", None, note=never),
        Case("tma_copy", "tma_copy_2d_test", "grid 16, block 256; map 256x256 f32, box 64x64", _tma_copy_2d,
             _tma_copy_2d_check, note="16 blocks each load tile (0, 0); host code checks the 4096 values"),
        Case("tma_copy", "tma_pipeline_test", "grid 1, block 256; map 256x256 f32, box 32x32", _tma_pipeline,
             _expect(np.ones(256), "per-thread success flags")),
        Case("tma_multicast", "tma_multicast_test", "grid 4, block 256, cluster 4; map 256x256 f32, box 64x64",
             _tma_multicast, _tma_multicast_check,
             note="multicast to the 4 CTAs of the cluster (sm_90a); the example's host code itself runs it only "
                  "on sm_100+, the instruction is sm_90a's"),
        Case("cluster", "compile_cluster_grid_helpers", "-", None,
             note="compiled only: the host code never launches it"),
        Case("cluster", "test_cluster_compile_time", "grid 4, block 32, cluster 4",
             _u32_launch("test_cluster_compile_time", CLUSTER),
             _expect([(r << 16) | CLUSTER for r in range(CLUSTER)], "rank << 16 | cluster size")),
        Case("cluster", "test_cluster_intrinsics", "grid 4, block 32 (no cluster)",
             _u32_launch("test_cluster_intrinsics", CLUSTER * 8), _intrinsics_check),
        Case("cluster", "test_cluster_sync", "grid 4, block 32, cluster 4", _u32_launch("test_cluster_sync", CLUSTER),
             _expect([r * 100 + 42 for r in range(CLUSTER)], "rank * 100 + 42")),
        Case("cluster", "test_dsmem_ring_exchange", "grid 4, block 32, cluster 4",
             _u32_launch("test_dsmem_ring_exchange", CLUSTER),
             _expect([1000 + (r + 1) % CLUSTER for r in range(CLUSTER)], "neighbour's 1000 + rank")),
        Case("cluster", "test_dsmem_reduction", "grid 4, block 32, cluster 4",
             _u32_launch("test_dsmem_reduction", 1), _expect([100], "sum of (rank + 1) * 10")),
        Case("mcast_barrier_test", "mcast_barrier_loop", "grid 4, block 32, cluster 4; 7 launches, 4..1024 iterations",
             _mcast_loop, _mcast_check),
    ]


def describe(out: Outputs) -> str:
    """A short summary of a case's outputs for the report (the wgmma descriptor is spelled out)."""
    if set(out) == {"desc"}:
        return _descriptor_fields(int(out["desc"][0]))
    return ", ".join(f"{k}: {v.size} x {v.dtype}" for k, v in out.items())
