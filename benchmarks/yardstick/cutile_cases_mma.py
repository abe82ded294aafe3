"""The GEMM family of the cutile-rs examples (gemm, gemm_static, async_gemm, batch_matmul, persistent_gemm) as
cutile_run.py cases; see cutile_cases.py for what a case is.

f32 products: oxide's `mma` rounds f32 operands to tf32 (as the tensor cores do), so an f32 GEMM is compared
with a float64 reference within 4e-3 * sqrt(K) (about six standard deviations of the tf32 rounding error of a
K-term sum of unit-normal products), not with the host code's exact or 1e-3 checks, which use inputs (all ones,
small multiples of 1/8) that tf32 represents exactly. A kernel that reads a wrong tile is off by O(sqrt(K)).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cutile_cases import Arrays, Case, Env, Sizes, Tol, entry, instance, part, randn

SAMPLE_ROWS = 64  # rows of a host-size GEMM checked against numpy (the whole product is hours of CPU)


def tf32_tol(k: int) -> Tol:
    return Tol(0.0, 4e-3 * np.sqrt(k), "4e-3 * sqrt(K), a tf32-level bound (f32 mma is now f32-accurate; the bound was not tightened)")


def sample_rows(m: int) -> np.ndarray:
    """The rows checked: all of a small product, a fixed spread (first, last, seeded others) of a large one."""
    if m <= SAMPLE_ROWS:
        return np.arange(m)
    rng = np.random.default_rng(m)
    return np.unique(np.concatenate([[0, m - 1], rng.choice(m, SAMPLE_ROWS - 2, replace=False)]))


def _gemm_inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    t = np.dtype(s["dtype"])
    return {"x": randn(rng, (s["m"], s["k"]), t), "y": randn(rng, (s["k"], s["n"]), t),
            "z": randn(rng, (s["m"], s["n"]), s.get("out", t))}


def _gemm_generics(s: Sizes) -> list[Any]:
    static = [s["m"], s["n"]] if s.get("static") else []
    return [s["dtype"] if s["dtype"] != "float32" else "f32", s["bm"], s["bn"], s["bk"], *static, s["k"]]


def _gemm_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    z = a["z"].copy()
    kernel = env.kernel(entry("gemm", *_gemm_generics(s)))
    grid = (s["m"] // s["bm"], s["n"] // s["bn"], 1)
    if s.get("static"):
        kernel[grid](part(z, (s["bm"], s["bn"])), a["x"], a["y"])  # the host code bakes the grid in
    else:
        kernel(part(z, (s["bm"], s["bn"])), a["x"], a["y"])
    return {"z rows": z[sample_rows(s["m"])]}


def _gemm_reference(s: Sizes, a: Arrays) -> Arrays:
    rows = sample_rows(s["m"])
    # The kernel starts from z's contents (`load_tile_mut(z)`) and adds x @ y.
    return {"z rows": a["z"][rows].astype(np.float64)
            + a["x"][rows].astype(np.float64) @ a["y"].astype(np.float64)}


def _gemm_case(example: str, static: bool) -> Case:
    scale = 2 ** 10
    host = {"m": scale * 16, "n": scale * 16, "k": scale * 8, "bm": 16, "bn": 16, "bk": 8, "dtype": "float32",
            "static": static}
    small = {**host, "m": 64, "n": 48, "k": 40}
    dims = ", M=16384, N=16384" if static else ""
    return Case(example, f"gemm<E=f32, BM=16, BN=16, BK=8{dims}, K=8192>", host,
                lambda s: {"gemm": [[str(v) for v in _gemm_generics(s)]]}, _gemm_inputs, _gemm_run,
                _gemm_reference, {"z rows": tf32_tol(host["k"])}, emulator=small,
                smaller_why="16384 x 16384 x 8192 is 10^6 tile blocks of 1024 steps: the emulator runs 64 x 48 x 40",
                host_features="the grid stated at launch (`kernel[grid]`) for `.const_grid`" if static else "",
                note=f"the host code multiplies ones and prints 10 values; here random data, {SAMPLE_ROWS} rows "
                     "checked at the host's size")


def _async_gemm_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    z = a["z"].copy()
    env.kernel(entry("gemm", "f32", "f16", s["bm"], s["bn"], s["bk"], s["k"]))(part(z, (s["bm"], s["bn"])),
                                                                                 a["x"], a["y"])
    return {"z rows": z}


def _async_gemm_reference(s: Sizes, a: Arrays) -> Arrays:
    return {"z rows": a["z"].astype(np.float64) + a["x"].astype(np.float64) @ a["y"].astype(np.float64)}


def _batch_inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    b, m, n, k = s["batch"], s["m"], s["n"], s["k"]
    return {"a": randn(rng, (b, m, k)), "b": randn(rng, (b, k, n)), "c": randn(rng, (b, m, n))}


def _batch_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    c = a["c"].copy()
    env.kernel(entry("batch_matmul", "f32", s["bm"], s["bn"], s["bk"], s["k"]))(
        part(c, (1, s["bm"], s["bn"])), a["a"], a["b"])
    return {"c": c}


def _batch_reference(s: Sizes, a: Arrays) -> Arrays:
    return {"c": a["a"].astype(np.float64) @ a["b"].astype(np.float64)}  # the kernel starts from zero


def _persistent_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    z = a["z"].copy()
    tiles = oxide_partition_map(part(z, (s["bm"], s["bn"])), s["map"], s["blocks"])
    env.kernel(entry("gemm_persistent", "f32", s["bm"], s["bn"], s["bk"], s["map"]))(tiles, a["x"], a["y"])
    return {"z rows": z}


def oxide_partition_map(partition: Any, shape: list[int], blocks: int) -> Any:
    """cutile-rs's `partition([..]).map(MAP, num_tile_blocks)`: a mapped partition launched on `blocks` tile
    blocks that walk the output tiles themselves (`oxide.tile.Partition.map`)."""
    return partition.map(tuple(shape), blocks)


def _persistent_reference(s: Sizes, a: Arrays) -> Arrays:
    return {"z rows": a["x"].astype(np.float64) @ a["y"].astype(np.float64)}  # tiles start from zero


def cases() -> list[Case]:
    """The GEMM examples."""
    f16 = {"m": 64, "n": 64, "k": 16, "bm": 16, "bn": 16, "bk": 8, "dtype": "float16", "out": np.float32}
    batch = {"batch": 4, "m": 128, "n": 256, "k": 64, "bm": 64, "bn": 64, "bk": 32}
    persistent = {"m": 64, "n": 64, "k": 32, "bm": 16, "bn": 16, "bk": 8, "map": [4, 1], "blocks": 4,
                  "dtype": "float32"}
    return [
        _gemm_case("gemm", False),
        _gemm_case("gemm_static", True),
        Case("async_gemm", "gemm<E1=f32, E2=f16, BM=16, BN=16, BK=8, K=16>", f16,
             lambda s: instance("gemm", "f32", "f16", s["bm"], s["bn"], s["bk"], s["k"]), _gemm_inputs,
             _async_gemm_run, _async_gemm_reference, {"z rows": Tol(1e-5, 1e-5, "f16 products are exact in f32")},
             note="the host code prints the product next to its own; here checked against numpy"),
        Case("batch_matmul", "batch_matmul<E=f32, BM=64, BN=64, BK=32, K=64>", batch,
             lambda s: instance("batch_matmul", "f32", s["bm"], s["bn"], s["bk"], s["k"]), _batch_inputs,
             _batch_run, _batch_reference, {"c": tf32_tol(batch["k"])},
             note="the host code multiplies ones and checks c == K; here random data"),
        Case("persistent_gemm", "gemm_persistent<T=f32, BM=16, BN=16, BK=8, MAP_SHAPE=[4, 1]>", persistent,
             lambda s: instance("gemm_persistent", "f32", s["bm"], s["bn"], s["bk"], s["map"]),
             _gemm_inputs, _persistent_run,
             _persistent_reference, {"z rows": tf32_tol(persistent["k"])},
             host_features="the output partition mapped onto 4 tile blocks (`Partition.map`)",
             note="the host code's patterned inputs are exact in tf32 (1e-3 check); here random data"),
    ]
