"""The SIMT benchmark suite on the GPU: oxide's kernels against the same algorithm built with nvcc, and library
references (torch/cuBLAS) for headroom, in one run.

Runs on the GPU machine, which needs only numpy, cuda-python and (for the references) torch: oxide's kernels
come as PTX built beforehand by `build.py` (benchmarks/suite/build/), the peers (kernels/peers/<name>.cu, one
file per oxide kernel) are built here with `nvcc -O3 -arch=sm_90 -cubin`, and NVRTC's compile time of each is
measured here (build.py measures oxide's and nvcc's on the development machine). Both are launched the same way (cuLaunchKernel, same grid and block), each
launch timed with its own pair of CUDA events, median of `--runs` after warm-up, random inputs (never zeros)
larger than L2, results checked against numpy. Ceilings measured in the same run: device-to-device copy
bandwidth and cuBLAS FP32 SGEMM. Writes results.json and RESULTS.md into --out.

    python benchmarks/suite/run.py --out DIR [--runs 50] [--quick]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import platform
import statistics
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
from cuda.bindings import driver as cu

HERE = Path(__file__).resolve().parent


def check(result: Any) -> Any:
    err = result[0] if isinstance(result, tuple) else result
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"CUDA call failed: {err}")
    if isinstance(result, tuple):
        return result[1] if len(result) == 2 else result[1:]
    return None


class Buffer:
    """A device allocation filled from a numpy array."""

    def __init__(self, host: np.ndarray):
        self.host = np.ascontiguousarray(host)
        self.ptr = check(cu.cuMemAlloc(max(self.host.nbytes, 1)))
        check(cu.cuMemcpyHtoD(self.ptr, self.host.ctypes.data, self.host.nbytes))

    @staticmethod
    def empty(shape: Any, dtype: Any) -> "Buffer":
        return Buffer(np.zeros(shape, dtype))

    def get(self) -> np.ndarray:
        out = np.empty_like(self.host)
        check(cu.cuMemcpyDtoH(out.ctypes.data, self.ptr, out.nbytes))
        return out

    def zero(self) -> None:
        check(cu.cuMemsetD8(self.ptr, 0, self.host.nbytes))

    def free(self) -> None:
        check(cu.cuMemFree(self.ptr))


def _ctype(arg: Any) -> Any:
    if isinstance(arg, Buffer):
        return ctypes.c_uint64(int(arg.ptr))
    if isinstance(arg, np.generic):
        return np.ctypeslib.as_ctypes_type(arg.dtype)(arg.item())
    if isinstance(arg, int):
        return ctypes.c_uint64(arg)
    raise TypeError(arg)


class Launcher:
    """One kernel, its grid/block and argument list, launchable and timeable."""

    def __init__(self, function: Any, grid: tuple, block: tuple, args: list):
        self.function, self.grid, self.block = function, grid, block
        self.holders = [_ctype(a) for a in args]
        self.pointers = (ctypes.c_void_p * len(self.holders))(*[ctypes.addressof(h) for h in self.holders])

    def __call__(self) -> None:
        check(cu.cuLaunchKernel(self.function, *self.grid, *self.block, 0, 0, ctypes.addressof(self.pointers), 0))


def time_ms(run: Callable[[], None], runs: int, reset: Callable[[], None] | None = None, warmup: int = 5) -> float:
    """Median milliseconds of `runs` launches, each between its own two events (reset work, if any, outside)."""
    start, stop = check(cu.cuEventCreate(0)), check(cu.cuEventCreate(0))
    for _ in range(warmup):
        if reset:
            reset()
        run()
    check(cu.cuCtxSynchronize())
    samples = []
    for _ in range(runs):
        if reset:
            reset()
        check(cu.cuEventRecord(start, 0))
        run()
        check(cu.cuEventRecord(stop, 0))
        check(cu.cuEventSynchronize(stop))
        samples.append(check(cu.cuEventElapsedTime(start, stop)))
    return statistics.median(samples)


@dataclass
class Case:
    """One benchmark's work counts (filled by its setup function in CASES) and measured results."""

    name: str
    bytes_moved: float = 0.0
    flops: float = 0.0
    result: dict = field(default_factory=dict)


class Suite:
    def __init__(self, out: Path, runs: int, quick: bool, build: Path):
        self.out, self.runs, self.quick, self.build = out, runs, quick, build
        check(cu.cuInit(0))
        self.device = check(cu.cuDeviceGet(0))
        self.context = check(cu.cuDevicePrimaryCtxRetain(self.device))
        check(cu.cuCtxSetCurrent(self.context))
        self.rng = np.random.default_rng(7)
        self.peers: dict[str, Any] = {}
        self.peer_compile: dict[str, dict[str, float]] = {}
        for source in sorted((HERE / "kernels" / "peers").glob("*.cu")):
            self.peers[source.stem] = self._load_cubin(self._build_peer(source))
        self.ours: dict[str, Any] = {}

    def _build_peer(self, source: Path) -> Path:
        """Build one peer with nvcc; record NVRTC's compile of it to PTX (median of 3: the process's first
        NVRTC call also loads the library). nvcc's compile time is build.py's, on the machine oxide's is from."""
        cubin = self.out / f"{source.stem}.cubin"
        subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-cubin", "-o", str(cubin), str(source)], check=True)
        nvrtc = [nvrtc_seconds(source) for _ in range(3)]
        self.peer_compile[source.stem] = {"nvrtc_s": statistics.median(nvrtc) if None not in nvrtc else None}
        return cubin

    def _load_cubin(self, path: Path) -> Any:
        return check(cu.cuModuleLoadData(path.read_bytes()))

    def ours_fn(self, name: str, entry: str | None = None) -> Any:
        """oxide's kernel `entry` (default `name`) from build/<name>.ptx."""
        if name not in self.ours:
            ptx = (self.build / f"{name}.ptx").read_bytes() + b"\0"
            self.ours[name] = check(cu.cuModuleLoadData(ptx))
        return check(cu.cuModuleGetFunction(self.ours[name], (entry or name).encode()))

    def peer_fn(self, name: str, entry: str | None = None) -> Any:
        """nvcc's kernel `entry` (default `name`) from kernels/peers/<name>.cu."""
        return check(cu.cuModuleGetFunction(self.peers[name], (entry or name).encode()))

    def size(self, full: int, quick: int) -> int:
        return quick if self.quick else full


def _rand(suite: Suite, n: int | tuple) -> np.ndarray:
    # Values in [0.5, 1.5): never zero, sums stay well conditioned.
    return (suite.rng.random(n, dtype=np.float32) + np.float32(0.5)).astype(np.float32)


def _bench(suite: Suite, case: Case, ours: Launcher, peer: Launcher, outputs: tuple[Buffer, Buffer],
           expected: np.ndarray, tol: float, reset: Callable[[], None] | None = None,
           reference: Callable[[], None] | None = None) -> None:
    r = case.result
    for label, launcher, out in (("oxide", ours, outputs[0]), ("nvcc", peer, outputs[1])):
        if reset:
            reset()
        launcher()
        check(cu.cuCtxSynchronize())
        got = out.get()
        err = float(np.max(np.abs(got.astype(np.float64) - expected) / np.maximum(1.0, np.abs(expected))))
        r[f"{label}_max_rel_error"] = err
        r[f"{label}_correct"] = bool(err <= tol)
        r[f"{label}_ms"] = time_ms(launcher, suite.runs, reset)
    if reference is not None:
        r["reference_ms"] = _torch_ms(reference, suite.runs)
    for label in ("oxide", "nvcc", "reference"):
        ms = r.get(f"{label}_ms")
        if ms:
            if case.bytes_moved:
                r[f"{label}_gbs"] = case.bytes_moved / ms / 1e6
            if case.flops:
                r[f"{label}_tflops"] = case.flops / ms / 1e9
    r["ratio"] = r["nvcc_ms"] / r["oxide_ms"]


def _torch_ms(fn: Callable[[], None], runs: int) -> float:
    import torch

    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(runs):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        samples.append(a.elapsed_time(b))
    return statistics.median(samples)


def _torch() -> Any:
    try:
        import torch

        return torch if torch.cuda.is_available() else None
    except ImportError:
        return None


# --- the cases --------------------------------------------------------------------------------------------

def case_vecadd(suite: Suite, case: Case, triad: bool = False, vector: bool = False) -> None:
    """vecadd/triad over 2^28 floats: one float per thread, or (`vector`) one 16-byte F4/float4 per thread in
    n/4 threads, the kernels' lengths then counting F4s."""
    n = suite.size(1 << 28, 1 << 22)
    a, b = _rand(suite, n), _rand(suite, n)
    s = np.float32(1.75)
    da, db = Buffer(a), Buffer(b)
    o1, o2 = Buffer.empty(n, np.float32), Buffer.empty(n, np.float32)
    length = n // 4 if vector else n
    grid, block = ((length + 255) // 256, 1, 1), (256, 1, 1)
    name = ("triad" if triad else "vecadd") + ("4" if vector else "")
    if triad:
        ours = Launcher(suite.ours_fn(name), grid, block, [da, length, db, length, s, o1, length])
        peer = Launcher(suite.peer_fn(name), grid, block, [da, db, s, o2, length])
        expected = a.astype(np.float64) + np.float64(s) * b
    else:
        ours = Launcher(suite.ours_fn(name), grid, block, [da, length, db, length, o1, length])
        peer = Launcher(suite.peer_fn(name), grid, block, [da, db, o2, length])
        expected = a.astype(np.float64) + b
    case.bytes_moved, case.flops = 12.0 * n, (2.0 if triad else 1.0) * n
    torch = _torch()
    reference = None
    if torch is not None:
        ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
        tc = torch.empty_like(ta)
        reference = (lambda: torch.add(ta, tb, alpha=float(s), out=tc)) if triad else (lambda: torch.add(ta, tb, out=tc))
    _bench(suite, case, ours, peer, (o1, o2), expected, 1e-6, reference=reference)
    case.result["n"] = n


def case_reduce(suite: Suite, case: Case, vector: bool = False) -> None:
    """Sum of 2^28 floats by 132 x 8 blocks: one float per loop iteration, or (`vector`) one F4/float4."""
    n = suite.size(1 << 28, 1 << 22)
    x = _rand(suite, n)
    dx = Buffer(x)
    o1, o2 = Buffer.empty(1, np.float32), Buffer.empty(1, np.float32)
    grid, block = (132 * 8, 1, 1), (256, 1, 1)
    name, length = ("reduce4", n // 4) if vector else ("reduce", n)
    entry = "reduce_sum4" if vector else "reduce_sum"
    ours = Launcher(suite.ours_fn(name, entry), grid, block, [dx, length, o1, 1])
    peer = Launcher(suite.peer_fn(name, entry), grid, block, [dx, length, o2])
    case.bytes_moved, case.flops = 4.0 * n, float(n)
    expected = np.array([x.astype(np.float64).sum()])
    torch = _torch()
    reference = None
    if torch is not None:
        tx = torch.from_numpy(x).cuda()
        reference = lambda: tx.sum()  # noqa: E731

    def reset() -> None:
        o1.zero()
        o2.zero()

    _bench(suite, case, ours, peer, (o1, o2), expected, 1e-4, reset=reset, reference=reference)
    case.result["n"] = n


def case_transpose(suite: Suite, case: Case, tile: int = 32) -> None:
    """Transpose of 8192^2 floats by 32 x 8 threads per tile: 32 x 32 tiles (examples/rust/transpose.rs), or
    64 x 64 (transpose64, 16 elements per thread)."""
    n = suite.size(8192, 2048)
    x = _rand(suite, (n, n))
    dx = Buffer(x)
    o1, o2 = Buffer.empty((n, n), np.float32), Buffer.empty((n, n), np.float32)
    grid, block = (n // tile, n // tile, 1), (32, 8, 1)
    name = "transpose" if tile == 32 else f"transpose{tile}"
    ours = Launcher(suite.ours_fn(name), grid, block, [dx, n * n, o1, n * n, n, n])
    peer = Launcher(suite.peer_fn(name), grid, block, [dx, o2, n, n])
    case.bytes_moved, case.flops = 8.0 * n * n, 0.0
    torch = _torch()
    reference = None
    if torch is not None:
        tx = torch.from_numpy(x).cuda()
        to = torch.empty_like(tx)
        reference = lambda: to.copy_(tx.t())  # noqa: E731
    _bench(suite, case, ours, peer, (o1, o2), x.T.astype(np.float64), 0.0, reference=reference)
    case.result["n"] = n


def case_histogram(suite: Suite, case: Case, skewed: bool) -> None:
    n = suite.size(1 << 28, 1 << 22)
    if skewed:
        # Most bytes fall in a few bins: contention on the same shared-memory counters.
        data = np.minimum(suite.rng.geometric(0.3, n) - 1, 255).astype(np.uint8)
    else:
        data = suite.rng.integers(0, 256, n, dtype=np.uint8)
    dd = Buffer(data)
    o1, o2 = Buffer.empty(256, np.uint32), Buffer.empty(256, np.uint32)
    grid, block = (132 * 8, 1, 1), (256, 1, 1)
    ours = Launcher(suite.ours_fn("histogram"), grid, block, [dd, n, o1, 256])
    peer = Launcher(suite.peer_fn("histogram"), grid, block, [dd, n, o2])
    case.bytes_moved, case.flops = float(n), 0.0
    expected = np.bincount(data, minlength=256).astype(np.float64)
    torch = _torch()
    reference = None
    if torch is not None:
        td = torch.from_numpy(data).cuda()
        reference = lambda: torch.bincount(td, minlength=256)  # noqa: E731

    def reset() -> None:
        o1.zero()
        o2.zero()

    _bench(suite, case, ours, peer, (o1, o2), expected, 0.0, reset=reset, reference=reference)
    case.result["n"] = n


def case_stencil(suite: Suite, case: Case) -> None:
    n = suite.size(16384, 2048)
    x = _rand(suite, (n, n))
    dx = Buffer(x)
    o1, o2 = Buffer.empty((n, n), np.float32), Buffer.empty((n, n), np.float32)
    grid, block = (n // 32, n // 8, 1), (32, 8, 1)
    ours = Launcher(suite.ours_fn("stencil"), grid, block, [dx, n * n, n, n, o1, n * n, np.uint32(n)])
    peer = Launcher(suite.peer_fn("stencil"), grid, block, [dx, n, n, o2])
    case.bytes_moved, case.flops = 8.0 * n * n, 6.0 * n * n
    expected = np.zeros((n, n))
    x64 = x.astype(np.float64)
    expected[1:-1, 1:-1] = 0.5 * x64[1:-1, 1:-1] + 0.125 * (x64[:-2, 1:-1] + x64[2:, 1:-1] + x64[1:-1, :-2] + x64[1:-1, 2:])
    _bench(suite, case, ours, peer, (o1, o2), expected, 1e-6)
    case.result["n"] = n


def case_sgemm(suite: Suite, case: Case) -> None:
    n = suite.size(4096, 1024)
    a, b = _rand(suite, (n, n)), _rand(suite, (n, n))
    da, db = Buffer(a), Buffer(b)
    o1, o2 = Buffer.empty((n, n), np.float32), Buffer.empty((n, n), np.float32)
    grid, block = (n // 16, n // 16, 1), (16, 16, 1)
    ours = Launcher(suite.ours_fn("sgemm"), grid, block, [da, n * n, db, n * n, n, o1, n * n, np.uint32(n)])
    peer = Launcher(suite.peer_fn("sgemm"), grid, block, [da, db, n, o2])
    case.bytes_moved, case.flops = 0.0, 2.0 * n ** 3
    expected = a.astype(np.float64) @ b.astype(np.float64)
    torch = _torch()
    reference = None
    if torch is not None:
        torch.backends.cuda.matmul.allow_tf32 = False
        ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
        tc = torch.empty_like(ta)
        reference = lambda: torch.mm(ta, tb, out=tc)  # noqa: E731
    _bench(suite, case, ours, peer, (o1, o2), expected, 1e-4, reference=reference)
    case.result["n"] = n


def case_softmax(suite: Suite, case: Case, vector: bool = False) -> None:
    """Row softmax of 16384 x 4096 floats, a block per row: one float per access, or (`vector`) one F4/float4,
    the kernels' lengths then counting F4s."""
    rows, cols = suite.size(16384, 1024), 4096
    x = (_rand(suite, (rows, cols)) * np.float32(4)).astype(np.float32)
    dx = Buffer(x)
    o1, o2 = Buffer.empty((rows, cols), np.float32), Buffer.empty((rows, cols), np.float32)
    grid, block = (rows, 1, 1), (256, 1, 1)
    name, width = ("softmax4", cols // 4) if vector else ("softmax", cols)
    ours = Launcher(suite.ours_fn(name), grid, block, [dx, rows * width, width, o1, rows * width])
    peer = Launcher(suite.peer_fn(name), grid, block, [dx, width, o2])
    case.bytes_moved, case.flops = 8.0 * rows * cols, 0.0
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    torch = _torch()
    reference = None
    if torch is not None:
        tx = torch.from_numpy(x).cuda()
        reference = lambda: torch.softmax(tx, dim=1)  # noqa: E731
    _bench(suite, case, ours, peer, (o1, o2), expected, 1e-5, reference=reference)
    case.result["shape"] = [rows, cols]


CASES: list[tuple[str, Callable[[Suite, Case], None]]] = [
    ("vecadd", case_vecadd),
    ("triad", lambda s, c: case_vecadd(s, c, triad=True)),
    ("vecadd4", lambda s, c: case_vecadd(s, c, vector=True)),
    ("triad4", lambda s, c: case_vecadd(s, c, triad=True, vector=True)),
    ("reduce", case_reduce),
    ("reduce4", lambda s, c: case_reduce(s, c, vector=True)),
    ("transpose", case_transpose),
    ("transpose64", lambda s, c: case_transpose(s, c, tile=64)),
    ("histogram (uniform)", lambda s, c: case_histogram(s, c, skewed=False)),
    ("histogram (skewed)", lambda s, c: case_histogram(s, c, skewed=True)),
    ("stencil", case_stencil),
    ("sgemm", case_sgemm),
    ("softmax", case_softmax),
    ("softmax4", lambda s, c: case_softmax(s, c, vector=True)),
]


def copy_bandwidth(runs: int) -> float:
    """Device-to-device copy bandwidth (bytes read + written) in GB/s, 2 GiB buffers."""
    nbytes = 1 << 31
    src, dst = check(cu.cuMemAlloc(nbytes)), check(cu.cuMemAlloc(nbytes))
    check(cu.cuMemsetD8(src, 1, nbytes))
    ms = time_ms(lambda: check(cu.cuMemcpyDtoD(dst, src, nbytes)), runs)
    check(cu.cuMemFree(src))
    check(cu.cuMemFree(dst))
    return 2 * nbytes / ms / 1e6


def nvrtc_seconds(source: Path) -> float | None:
    """Seconds NVRTC takes to compile `source` to PTX for sm_90 (None when NVRTC is unavailable)."""
    try:
        from cuda.bindings import nvrtc
    except ImportError:
        return None
    start = time.perf_counter()
    program = check_nvrtc(nvrtc, nvrtc.nvrtcCreateProgram(source.read_bytes(), source.name.encode(), 0, [], []))
    check_nvrtc(nvrtc, nvrtc.nvrtcCompileProgram(program, 1, [b"--gpu-architecture=sm_90"]))
    return time.perf_counter() - start


def check_nvrtc(nvrtc: Any, result: Any) -> Any:
    err = result[0]
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"NVRTC failed: {err}")
    return result[1] if len(result) > 1 else None


def triton_vecadd_compile_seconds() -> float | None:
    """Seconds Triton's first launch of a vector add takes beyond a cached launch (its JIT compile)."""
    try:
        import torch
        import triton
        import triton.language as tl
    except ImportError:
        return None

    @triton.jit
    def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
                 mask=mask)

    x = torch.rand(1 << 20, device="cuda") + 0.5
    out = torch.empty_like(x)
    grid = ((1 << 20) // 1024,)
    start = time.perf_counter()
    add[grid](x, x, out, 1 << 20, BLOCK=1024)
    torch.cuda.synchronize()
    first = time.perf_counter() - start
    start = time.perf_counter()
    add[grid](x, x, out, 1 << 20, BLOCK=1024)
    torch.cuda.synchronize()
    return first - (time.perf_counter() - start)


def gpu_facts() -> dict:
    facts = {"host": platform.node()}
    try:
        query = "name,driver_version,clocks.sm,clocks.max.sm,clocks.mem"
        text = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader"], capture_output=True,
                              text=True, check=True).stdout.strip()
        facts.update(dict(zip(query.split(","), [v.strip() for v in text.split(",")])))
    except (OSError, subprocess.CalledProcessError) as exc:
        facts["nvidia-smi"] = f"unavailable: {exc}"
    return facts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke test, not a measurement)")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--build", type=Path, default=HERE / "build", help="folder of oxide's PTX (build.py writes it)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    suite = Suite(args.out, args.runs, args.quick, args.build)
    results: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "gpu": gpu_facts(),
                               "runs": args.runs, "quick": args.quick, "peer_compile": suite.peer_compile,
                               "copy_gbs": copy_bandwidth(args.runs), "cases": {}}
    torch = _torch()
    if torch is not None:
        torch.backends.cuda.matmul.allow_tf32 = False
        n = 8192
        x, y = torch.rand(n, n, device="cuda") + 0.5, torch.rand(n, n, device="cuda") + 0.5
        results["sgemm_ceiling_tflops"] = 2 * n ** 3 / _torch_ms(lambda: torch.mm(x, y), 10) / 1e9
    for name, setup in CASES:
        if args.only and name.split(" ")[0] not in args.only:
            continue
        case = Case(name)
        try:
            setup(suite, case)
        except Exception as exc:  # one failing case must not hide the others' numbers
            case.result["error"] = f"{type(exc).__name__}: {exc}"
        results["cases"][name] = case.result
        print(name, json.dumps(case.result), flush=True)
    results["triton_vecadd_compile_s"] = triton_vecadd_compile_seconds()
    build_times = args.build / "compile_times.json"
    if build_times.exists():
        results["oxide_compile"] = json.loads(build_times.read_text())
    results["gpu_after"] = gpu_facts()
    (args.out / "results.json").write_text(json.dumps(results, indent=2))
    from report import write_report

    write_report(results, args.out / "RESULTS.md", args.out / "ratios.png")


if __name__ == "__main__":
    main()
