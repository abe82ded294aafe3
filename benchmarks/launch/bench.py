"""Host-side launch overhead: microseconds per launch of an empty kernel and of a 4-argument vecadd, queued
on one stream without synchronising (the GPU work is negligible next to the host cost), through

  raw        cuda.bindings cuLaunchKernel with a parameter array built once (the floor)
  raw+args   cuda.bindings cuLaunchKernel, parameter array built per launch (what a minimal launcher does)
  oxide      a prepared launch: prepared(a, b, c, n, stream=s)  (checks arguments, overlap, requires)
  oxide[]    numba style: mod.vecadd4[grid, block, s](a, b, c, n)
  cupy       CuPy RawModule loading the same PTX
  triton     a Triton kernel of the same work

    python benchmarks/launch/bench.py [--launches 20000] [--repeat 7] [--json out.json]

Needs a GPU; CuPy and Triton rows are skipped when those are not installed. Writes a Markdown table to stdout.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

HERE = Path(__file__).resolve().parent
N = 1 << 20
BLOCK = 256


def timed(launch: Callable[[], Any], sync: Callable[[], Any], launches: int, repeat: int) -> float:
    """Median over `repeat` runs of the microseconds per launch of `launches` back-to-back launches."""
    for _ in range(200):
        launch()
    sync()
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(launches):
            launch()
        runs.append((time.perf_counter() - start) / launches * 1e6)
        sync()
    return statistics.median(runs)


def oxide_rows(launches: int, repeat: int) -> tuple[dict[str, dict[str, float]], Any]:
    import oxide
    from oxide.runtime import LaunchConfig1D, Module
    from oxide.runtime.driver import check, cuda

    mod = oxide.load(HERE / "kernels.rs", target="gpu")
    drv = cuda()
    stream = mod.stream()
    a, b, c = (Module.zeros(mod, N, np.float32) for _ in range(3))
    grid = N // BLOCK
    rows: dict[str, dict[str, float]] = {}
    empty, vecadd = mod.kernels["empty"], mod.kernels["vecadd4"]
    p_empty = empty.prepare(LaunchConfig1D(1, 32))
    p_vec = vecadd.prepare(LaunchConfig1D(grid, BLOCK))
    sync = stream.synchronize

    f_empty, f_vec = empty.function.handle, vecadd.function.handle
    no_params = (ctypes.c_void_p * 1)()
    values = [ctypes.c_uint64(a.ptr), ctypes.c_uint64(N), ctypes.c_uint64(b.ptr), ctypes.c_uint64(N),
              ctypes.c_uint64(c.ptr), ctypes.c_uint64(N), ctypes.c_uint32(N)]
    params = (ctypes.c_void_p * 7)(*[ctypes.addressof(v) for v in values])
    launch = drv.cuLaunchKernel
    handle = stream.handle
    addr_none, addr_vec = ctypes.addressof(no_params), ctypes.addressof(params)

    def raw_args() -> None:
        vals = [ctypes.c_uint64(a.ptr), ctypes.c_uint64(N), ctypes.c_uint64(b.ptr), ctypes.c_uint64(N),
                ctypes.c_uint64(c.ptr), ctypes.c_uint64(N), ctypes.c_uint32(N)]
        ptrs = (ctypes.c_void_p * 7)(*[ctypes.addressof(v) for v in vals])
        check(launch(f_vec, grid, 1, 1, BLOCK, 1, 1, 0, handle, ctypes.addressof(ptrs), 0), "launch")

    rows["raw"] = {"empty": timed(lambda: launch(f_empty, 1, 1, 1, 32, 1, 1, 0, handle, addr_none, 0), sync, launches, repeat),
                   "vecadd4": timed(lambda: launch(f_vec, grid, 1, 1, BLOCK, 1, 1, 0, handle, addr_vec, 0), sync, launches,
                                    repeat)}
    rows["raw+args"] = {"empty": rows["raw"]["empty"], "vecadd4": timed(raw_args, sync, launches, repeat)}
    rows["oxide"] = {"empty": timed(lambda: p_empty(stream=stream), sync, launches, repeat),
                     "vecadd4": timed(lambda: p_vec(a, b, c, N, stream=stream), sync, launches, repeat)}
    rows["oxide[]"] = {"empty": timed(lambda: empty[1, 32, stream](), sync, launches, repeat),
                       "vecadd4": timed(lambda: vecadd[grid, BLOCK, stream](a, b, c, N), sync, launches, repeat)}
    return rows, mod


def cupy_row(mod: Any, launches: int, repeat: int) -> dict[str, float] | None:
    try:
        import cupy as cp
    except ImportError:
        return None
    ptx = HERE / "_bench.ptx"
    ptx.write_text(mod.artifact.ptx[mod.executor.chip])
    module = cp.RawModule(path=str(ptx))
    empty, vecadd = module.get_function("empty"), module.get_function("vecadd4")
    a, b, c = (cp.zeros(N, cp.float32) for _ in range(3))
    n64, n32 = np.uint64(N), np.uint32(N)
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        return {"empty": timed(lambda: empty((1,), (32,), ()), stream.synchronize, launches, repeat),
                "vecadd4": timed(lambda: vecadd((N // BLOCK,), (BLOCK,), (a, n64, b, n64, c, n64, n32)),
                                 stream.synchronize, launches, repeat)}


def triton_row(launches: int, repeat: int) -> dict[str, float] | None:
    try:
        import torch
        import triton
        import triton.language as tl
    except ImportError:
        return None

    @triton.jit
    def empty_kernel():
        pass

    @triton.jit
    def vecadd_kernel(a, b, c, n, BLOCK_SIZE: tl.constexpr):
        offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offs < n
        tl.store(c + offs, tl.load(a + offs, mask=mask) + tl.load(b + offs, mask=mask), mask=mask)

    a, b, c = (torch.zeros(N, device="cuda") for _ in range(3))
    grid = (N // 1024,)
    return {"empty": timed(lambda: empty_kernel[(1,)](), torch.cuda.synchronize, launches, repeat),
            "vecadd4": timed(lambda: vecadd_kernel[grid](a, b, c, N, BLOCK_SIZE=1024), torch.cuda.synchronize,
                             launches, repeat)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", type=Path, default=None)
    options = parser.parse_args()
    from oxide.runtime import gpu_status

    ok, why = gpu_status()
    if not ok:
        print(f"no GPU ({why}): nothing to measure", file=sys.stderr)
        return 1
    rows, mod = oxide_rows(options.launches, options.repeat)
    for name, row in (("cupy", cupy_row(mod, options.launches, options.repeat)),
                      ("triton", triton_row(options.launches, options.repeat))):
        if row is not None:
            rows[name] = row
    import cuda.bindings

    print(f"GPU: {mod.device.name}; cuda-bindings {cuda.bindings.__version__}; Python {sys.version.split()[0]}; "
          f"{options.launches} launches x {options.repeat}, median\n")
    print("| launcher | empty (µs/launch) | vecadd4 (µs/launch) | vecadd4 / raw |")
    print("|---|---|---|---|")
    for name, row in rows.items():
        print(f"| {name} | {row['empty']:.2f} | {row['vecadd4']:.2f} | {row['vecadd4'] / rows['raw']['vecadd4']:.2f}x |")
    if options.json:
        options.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
