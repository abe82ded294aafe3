"""The launches of cuda-oxide's coop_groups_demo example, re-expressed in Python for hopper_run.py.

Its host code launches every kernel once: warp-level kernels on 8 blocks of 32 threads (256 threads), the
grid-sync kernels cooperatively on 32 blocks of 128 (the cluster one on 4 blocks of 128 in clusters of 2),
and the block-level kernels on 4 blocks of 96. The expected values are the host code's; the float kernels
reduce small integers, which float32 adds exactly in any order, so the emulator and the GPU must agree bit
for bit.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from hopper_cases import Case, Outputs, launch, mismatches

N = 256  # warp tests: 8 blocks x 32 threads
WARPS = N // 32
GRID_BLOCKS, GRID_THREADS = 32, 128  # grid-sync tests
CLUSTER_COOP_BLOCKS = 4
BLOCK, BLOCKS = 96, 4  # block tests

_DTYPES = {"u32": np.uint32, "i32": np.int32, "f32": np.float32}


def _one_buffer(kernel: str, grid: int, block: int, n: int, dtype: Any) -> Callable[[Any], Outputs]:
    def run(module: Any) -> Outputs:
        out = np.zeros(n, dtype)
        launch(module, kernel, grid, block, out)
        return {"out": out}

    return run


def _grid_sync(kernel: str, blocks: int) -> Callable[[Any], Outputs]:
    def run(module: Any) -> Outputs:
        markers, sums = np.zeros(blocks, np.uint32), np.zeros(blocks, np.uint32)
        launch(module, kernel, blocks, GRID_THREADS, markers, sums)
        return {"markers": markers, "sums": sums}

    return run


def _grid_sync_check(blocks: int) -> Callable[[Outputs], list[str]]:
    total = blocks * (blocks + 1) // 2
    return lambda out: mismatches(out["sums"], np.full(blocks, total, np.uint32), f"every block's marker sum {total}")


def _expect(want: np.ndarray, what: str, atol: float = 0.0) -> Callable[[Outputs], list[str]]:
    return lambda out: mismatches(out["out"], want, what, atol)


def _lanes(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.int64) % 32


def _warp_scan(kind: str) -> np.ndarray:
    """Per thread of the 256: the inclusive warp scan the host code expects, flattened like the output."""
    k = _lanes(N)
    if kind == "u32":
        mask = (1 << (k + 1)) - 1
        rows = [k * (k + 1) // 2, 0 * k, k, ~mask & 0xFFFFFFFF, mask, mask]
    elif kind == "i32":
        rows = [k * (k + 1) // 2 - 16 * (k + 1), -16 + 0 * k, k - 16]
    else:
        rows = [k * (k + 1) // 2, 0 * k, k]
    return np.stack(rows, axis=1).astype(_DTYPES[kind]).reshape(-1)


def _block_scan(kind: str) -> np.ndarray:
    """Per thread of one 96-thread block: the inclusive block scan the host code expects, shape (96, ops)."""
    tid = np.arange(BLOCK, dtype=np.int64)
    if kind == "u32":
        bits = 1 << (tid & 31)
        ors = np.bitwise_or.accumulate(bits)
        rows = [np.cumsum(tid), 0 * tid, tid, ~ors & 0xFFFFFFFF, ors, np.bitwise_xor.accumulate(bits)]
    else:
        v = tid - 48 if kind == "i32" else tid
        rows = [np.cumsum(v), np.minimum.accumulate(v), np.maximum.accumulate(v)]
    return np.stack(rows, axis=1).astype(_DTYPES[kind])


def _warp_cases() -> list[Case]:
    warp_cfg = "grid 8, block 32"
    lanes = _lanes(N)
    one = lambda kernel, want, what: Case("coop_groups_demo", kernel, warp_cfg,  # noqa: E731
                                          _one_buffer(kernel, WARPS, 32, N, np.uint32), _expect(want, what))
    return [
        one("test_active_mask", np.full(N, 0xFFFFFFFF, np.uint32), "active mask"),
        one("test_match_any", (0xF << (lanes // 4 * 4)).astype(np.uint32), "lane / 4 bucket masks"),
        one("test_match_all", np.full(N, 0xFFFFFFFF, np.uint32), "match_all mask"),
    ]


def _tile_cases() -> list[Case]:
    warp_cfg = "grid 8, block 32"
    lanes = _lanes(N)
    one = lambda kernel, want, what: Case("coop_groups_demo", kernel, warp_cfg,  # noqa: E731
                                          _one_buffer(kernel, WARPS, 32, N, np.uint32), _expect(want, what))
    return [
        one("test_typed_warp32_ballot", np.full(N, 0xAAAAAAAA, np.uint32), "ballot of odd lanes"),
        one("test_typed_warp16_ballot", np.full(N, 0xAAAA, np.uint32), "16-lane ballot of odd lanes"),
        one("test_typed_warp16_shfl", np.where(lanes < 16, 0, 16).astype(np.uint32), "16-lane tile broadcasts"),
    ]


def _reduce_scan_cases() -> list[Case]:
    out: list[Case] = []
    for kind, dtype in _DTYPES.items():
        ops = 6 if kind == "u32" else 3
        tol = {"f32": 1e-4}.get(kind, 0.0)
        want = _warp_scan(kind).reshape(N, ops)[31::32].reshape(-1)  # lane 31's inclusive scan = the reduction
        out.append(Case("coop_groups_demo", f"test_warp_reduce_{kind}", "grid 8, block 32",
                        _one_buffer(f"test_warp_reduce_{kind}", WARPS, 32, WARPS * ops, dtype),
                        _expect(want, "each warp's [sum, min, max, ...]", tol)))
    for kind, dtype in _DTYPES.items():
        ops = 6 if kind == "u32" else 3
        out.append(Case("coop_groups_demo", f"test_warp_scan_{kind}", "grid 8, block 32",
                        _one_buffer(f"test_warp_scan_{kind}", WARPS, 32, N * ops, dtype),
                        _expect(_warp_scan(kind), "each lane's inclusive scan", 1e-3 if kind == "f32" else 0.0)))
    for what in ("reduce", "scan"):
        for kind, dtype in _DTYPES.items():
            scan = _block_scan(kind)
            want = np.tile((scan[-1] if what == "reduce" else scan).reshape(-1), BLOCKS)
            kernel = f"test_block_{what}_{kind}"
            out.append(Case("coop_groups_demo", kernel, "grid 4, block 96",
                            _one_buffer(kernel, BLOCKS, BLOCK, want.size, dtype),
                            _expect(want, f"each block's {what}", 1e-2 if kind == "f32" else 0.0)))
    return out


def cases() -> list[Case]:
    """coop_groups_demo's launches, in its host code's order."""
    grid_cfg = f"grid {GRID_BLOCKS}, block {GRID_THREADS}, cooperative"
    rank = Case("coop_groups_demo", "test_typed_grid_rank", f"grid {GRID_BLOCKS}, block {GRID_THREADS}",
                _one_buffer("test_typed_grid_rank", GRID_BLOCKS, GRID_THREADS, GRID_BLOCKS * GRID_THREADS, np.uint32),
                _expect(np.arange(GRID_BLOCKS * GRID_THREADS, dtype=np.uint32), "thread_rank identity"))
    return [
        *_warp_cases(),
        Case("coop_groups_demo", "test_grid_sync", grid_cfg, _grid_sync("test_grid_sync", GRID_BLOCKS),
             _grid_sync_check(GRID_BLOCKS)),
        Case("coop_groups_demo", "test_cluster_coop_grid_sync",
             f"grid {CLUSTER_COOP_BLOCKS}, block {GRID_THREADS}, cluster 2, cooperative",
             _grid_sync("test_cluster_coop_grid_sync", CLUSTER_COOP_BLOCKS), _grid_sync_check(CLUSTER_COOP_BLOCKS),
             note="the host code's further check, that preparing a 1048576-block launch fails, tests its own "
                  "runtime and is not restated"),
        *_tile_cases(),
        Case("coop_groups_demo", "test_typed_grid_sync", grid_cfg, _grid_sync("test_typed_grid_sync", GRID_BLOCKS),
             _grid_sync_check(GRID_BLOCKS)),
        rank,
        *_reduce_scan_cases(),
    ]
