"""The tile examples on the GPU against Triton (the same algorithm, one Triton program per tile block) and torch,
in one run: GB/s or TFLOP/s, % of the ceilings measured in the same run, and the oxide/Triton ratio.

Runs on the GPU machine, which needs only the runtime: oxide's kernels are the artifacts in
tests/fixtures/tile/ (built ahead of time by tests/fixtures/sources.py). Every launch goes through oxide's
runtime (`mod.kernel[grid, stream](partition, ...)`: argument, partition and overlap checks included) on torch's
stream; Triton's and torch's launches are on the same stream. Timing: CUDA events around 10 back-to-back
launches, median of --runs such samples after warm-up; random inputs (never zeros), buffers larger than L2;
every result is checked against torch first.

    python benchmarks/tile/run.py --out DIR [--runs 30] [--only-gemm | --suites vecadd rows gemm sm90a pgemm attention]
                                  [--fixtures DIR]   # artifacts built elsewhere (e.g. another -O level)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import torch
from cuda.bindings import driver

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import oxide.tile  # noqa: E402
from oxide.runtime.module import load  # noqa: E402

import attention_suite  # noqa: E402
import bmm_suite  # noqa: E402
import gemm_suite  # noqa: E402
import pgemm_suite  # noqa: E402
import triton_peers as peers  # noqa: E402
from benchmarks.torch_events import host_launch_us, time_ms  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "tile"


def ceilings(runs: int) -> dict[str, float]:
    """Device copy bandwidth (GB/s, read + write) and torch/cuBLAS bf16 matmul TFLOP/s at 8192^3."""
    src = torch.rand(1 << 28, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = time_ms(lambda: dst.copy_(src), runs)
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    mm_ms = time_ms(lambda: torch.matmul(a, b), runs)
    return {"copy_gbs": 2 * src.numel() * 4 / copy_ms / 1e6, "bf16_tflops": 2 * 8192 ** 3 / mm_ms / 1e9}


def warm_up(seconds: float = 2.0) -> None:
    """Keep the GPU busy for a while before the first timing: an idle GPU starts at low clocks, and the first
    case's three contenders would otherwise be timed while the clock ramps (one run timed oxide's 4096^3 GEMM
    at 0.57x cuBLAS this way, against 0.93x for the identical f16 kernel right after)."""
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            torch.matmul(a, a)
        torch.cuda.synchronize()


# The groups of cases: vecadd, the row kernels, the sm_80-style GEMM, the sm_90a GEMM suite (with batched GEMM and
# fp8), attention.
SUITES = ("vecadd", "rows", "gemm", "sm90a", "pgemm", "attention")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--only-gemm", action="store_true",
                    help="only the sm_90a GEMM cases (gemm_suite.py, bmm_suite.py)")
    ap.add_argument("--suites", nargs="+", choices=SUITES, default=list(SUITES),
                    help="which groups of cases to run (default: all)")
    ap.add_argument("--fixtures", type=Path, default=FIXTURES.parent,
                    help="folder holding tile/ and tile_sm90a/ artifacts (default: tests/fixtures)")
    args = ap.parse_args()
    fixtures = args.fixtures / "tile"
    suites = {"sm90a"} if args.only_gemm else set(args.suites)
    args.out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    mods = {stem: load(fixtures / f"{stem}.oxide.json", target="gpu")
            for stem in ("vecadd", "softmax", "layernorm", "rmsnorm", "gemm")}
    results: dict[str, Any] = {}
    warm_up()

    def case(name: str, ours: Callable[[], None], triton: Callable[[], None], reference: Callable[[], Any],
             out_ours: Any, out_triton: Any, bytes_moved: float = 0.0, flops: float = 0.0, tol: float = 1e-4,
             reference_label: str = "torch") -> None:
        ours()
        triton()
        expected = reference()
        torch.cuda.synchronize()
        r: dict[str, Any] = {}
        for label, out in (("oxide", out_ours), ("triton", out_triton)):
            r[f"{label}_correct"] = bool(torch.allclose(out.float(), expected.float(), rtol=tol, atol=tol))
        for label, fn in (("oxide", ours), ("triton", triton), (reference_label, reference)):
            ms = time_ms(fn, args.runs)
            r[f"{label}_ms"] = ms
            if bytes_moved:
                r[f"{label}_gbs"] = bytes_moved / ms / 1e6
            if flops:
                r[f"{label}_tflops"] = flops / ms / 1e9
        r["ratio"] = r["triton_ms"] / r["oxide_ms"]
        for label, fn in (("oxide", ours), ("triton", triton)):
            r[f"{label}_launch_us"] = host_launch_us(fn)
        results[name] = r
        print(name, {k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}, flush=True)

    if "vecadd" in suites:
        vecadd(mods, stream, case)
    if "rows" in suites:
        rows(mods, stream, case)
    if "gemm" in suites:
        gemm(mods, stream, case)
    tiles = {}
    if "sm90a" in suites:
        # GEMMs compiled for sm_90a: TMA, an mbarrier ring and wgmma (docs/tile-hopper.md).
        gemm_sm90a = load(fixtures.parent / "tile_sm90a" / "gemm_precisions.oxide.json", target="gpu")
        tiles = gemm_suite.run(gemm_sm90a, stream, results, args.runs)
        bmm = load(fixtures.parent / "tile_sm90a" / "batch_matmul.oxide.json", target="gpu")
        bmm_suite.run(bmm, stream, results, args.runs)
        fp8 = load(fixtures.parent / "tile_sm90a" / "gemm_fp8.oxide.json", target="gpu")
        results[gemm_suite.FP8_CASE[0]] = gemm_suite.run_fp8(fp8, stream, args.runs)
    if "pgemm" in suites:
        pgemm = load(fixtures.parent / "tile_sm90a" / "persistent_gemm_mixed.oxide.json", target="gpu")
        pgemm_suite.run(pgemm, stream, results, args.runs)
    if "attention" in suites:
        attention = load(fixtures.parent / "tile_sm90a" / "attention.oxide.json", target="gpu")
        attention_suite.run(attention, stream, results, args.runs)

    facts = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
             "triton": __import__("triton").__version__}
    try:
        query = "driver_version,clocks.sm,clocks.max.sm,clocks.mem"
        text = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader"], capture_output=True,
                              text=True, check=True).stdout.strip()
        facts.update(dict(zip(query.split(","), [v.strip() for v in text.split(",")])))
    except (OSError, subprocess.CalledProcessError):
        pass
    doc = {"facts": facts, "ceilings": ceilings(args.runs), "results": results, "sm90a_gemm_tiles": tiles}
    (args.out / "results.json").write_text(json.dumps(doc, indent=2))
    (args.out / "RESULTS.md").write_text(report(doc))
    print(json.dumps(doc["ceilings"]), json.dumps(facts))


def vecadd(mods: dict[str, Any], stream: Any, case: Callable[..., None]) -> None:
    """z = x + y over 2^28 floats, 1024-element tiles."""
    n = 1 << 28
    x, y = torch.rand(n, device="cuda") + 0.5, torch.rand(n, device="cuda") + 0.5
    z, zt = torch.empty_like(x), torch.empty_like(x)
    part = oxide.tile.partition(z, (1024,))
    case("vecadd", lambda: mods["vecadd"].add[part.grid, stream](part, x, y),
         lambda: peers.run_vecadd(x, y, zt, 1024), lambda: x + y, z, zt, bytes_moved=3 * n * 4)


# (rows, columns, rows per tile block) of the row kernels' cases; the first keeps the plain case names.
ROW_SHAPES = ((32768, 1024, 4), (16384, 4096, 1), (16384, 4096, 4))


def rows(mods: dict[str, Any], stream: Any, case: Callable[..., None]) -> None:
    """Row softmax, layernorm and rmsnorm over each of ROW_SHAPES (f32), Triton with the same rows per program."""
    for count, cols, bm in ROW_SHAPES:
        eps = 1e-5
        suffix = "" if (count, cols, bm) == ROW_SHAPES[0] else f"_{count}x{cols}_bm{bm}"
        x = torch.randn(count, cols, device="cuda") * 3 + 1
        w, b = torch.randn(cols, device="cuda"), torch.randn(cols, device="cuda")
        y, yt = torch.empty_like(x), torch.empty_like(x)
        part = oxide.tile.partition(y, (bm, cols))
        moved = 2 * count * cols * 4
        case("softmax" + suffix, lambda: mods["softmax"].softmax[part.grid, stream](part, x),
             lambda: peers.run_softmax(x, yt, bm), lambda: torch.softmax(x, dim=1), y, yt, bytes_moved=moved,
             tol=1e-5)
        case("layernorm" + suffix, lambda: mods["layernorm"].layernorm[part.grid, stream](part, x, w, b, eps),
             lambda: peers.run_layernorm(x, w, b, yt, eps, bm),
             lambda: torch.nn.functional.layer_norm(x, (cols,), w, b, eps), y, yt, bytes_moved=moved)
        case("rmsnorm" + suffix, lambda: mods["rmsnorm"].rmsnorm[part.grid, stream](part, x, w, eps),
             lambda: peers.run_rmsnorm(x, w, yt, eps, bm),
             lambda: x * torch.rsqrt(x.pow(2).mean(dim=1, keepdim=True) + eps) * w, y, yt, bytes_moved=moved)


def cublas_f32(a: Any, b: Any) -> Any:
    """cuBLAS's bf16 GEMM writing f32, the tile kernel's output type, with no cast in the timed region (torch's
    `out_dtype`; a torch without it times the bf16-output GEMM, which writes half the bytes)."""
    try:
        return torch.mm(a, b, out_dtype=torch.float32)
    except TypeError:
        return torch.mm(a, b)


def gemm(mods: dict[str, Any], stream: Any, case: Callable[..., None]) -> None:
    """c = a @ b at 4096^3, bf16 inputs, f32 accumulation and output; 128 x 128 tiles, BK = 64 (Triton: BK = 32)."""
    m = k = n = 4096
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c, ct = torch.empty(m, n, device="cuda"), torch.empty(m, n, device="cuda")
    part = oxide.tile.partition(c, (128, 128))
    case("gemm", lambda: mods["gemm"].gemm[part.grid, stream](part, a, b),
         lambda: peers.run_gemm(a, b, ct, 128, 128, 32), lambda: cublas_f32(a, b), c, ct,
         flops=2.0 * m * n * k, tol=2e-2, reference_label="cublas")


SIZES = {"vecadd": "2^28 f32", "softmax": "32768 x 1024 f32, 4 rows per block", "gemm": "4096^3 bf16 -> f32, 128x128x64 tiles",
         "layernorm": "32768 x 1024 f32, 4 rows per block", "rmsnorm": "32768 x 1024 f32, 4 rows per block",
         **{f"{kernel}_{count}x{cols}_bm{bm}": f"{count} x {cols} f32, {bm} row{'s' * (bm > 1)} per block"
            for kernel in ("softmax", "layernorm", "rmsnorm") for count, cols, bm in ROW_SHAPES[1:]},
         **{name: gemm_suite.describe(name) for name in gemm_suite.CASES},
         **{name: bmm_suite.describe(name) for name in bmm_suite.CASES},
         **{name: pgemm_suite.describe(name) for name in pgemm_suite.CASES},
         gemm_suite.FP8_CASE[0]: "8192^3 fp8 e4m3 -> bf16, B column-major, sm_90a; ratio to torch._scaled_mm",
         **{name: attention_suite.describe(name) for name in attention_suite.CASES}}


def report(doc: dict[str, Any]) -> str:
    """RESULTS.md: one row per kernel, oxide against Triton and torch, with % of the measured ceilings."""
    facts, ceil = doc["facts"], doc["ceilings"]
    lines = ["# Tile examples on the GPU: oxide against Triton and torch", "",
             f"{facts.get('gpu')}, driver {facts.get('driver_version')}, SM clock {facts.get('clocks.sm')} (max "
             f"{facts.get('clocks.max.sm')}), memory clock {facts.get('clocks.mem')}; torch {facts.get('torch')}, "
             f"Triton {facts.get('triton')}. Ceilings measured in the same run: copy {ceil['copy_gbs']:.0f} GB/s "
             f"(read + write), torch bf16 matmul {ceil['bf16_tflops']:.0f} TFLOP/s at 8192^3.", "",
             "GPU times exclude the host's launch cost (benchmarks/torch_events.py); the last column gives it, in "
             "microseconds per launch.", "",
             "| kernel | size | oxide | Triton | torch (cuBLAS for GEMMs, same output type) | oxide / Triton | "
             "oxide % of ceiling | host us per launch, oxide / Triton |",
             "|---|---|---|---|---|---|---|---|"]
    for name, r in doc["results"].items():
        unit, key, ceiling = ("TFLOP/s", "tflops", ceil["bf16_tflops"]) if "oxide_tflops" in r else \
            ("GB/s", "gbs", ceil["copy_gbs"])
        ok = "" if r["oxide_correct"] else " (WRONG)"
        reference = r.get(f"torch_{key}", r.get(f"cublas_{key}", r.get(f"scaled_mm_{key}", r.get(f"cudnn_{key}"))))
        # The fp8 case has no Triton peer: its ratio is to torch._scaled_mm; attention's column shows FA2.
        triton = f"{r[f'triton_{key}']:.0f}" if f"triton_{key}" in r else \
            f"{r[f'flash_{key}']:.0f} (FA2)" if f"flash_{key}" in r else "-"
        lines.append(f"| {name} | {SIZES.get(name, '')} | {r[f'oxide_{key}']:.0f} {unit}{ok} | "
                     f"{triton} | {reference:.0f} | {r['ratio']:.2f}x | "
                     f"{100 * r[f'oxide_{key}'] / ceiling:.0f}% | {_launch_us(r)} |")
    return "\n".join(lines) + "\n"


def _launch_us(r: dict[str, Any]) -> str:
    """The host launch cost column: oxide's, and Triton's where the case times Triton."""
    if "oxide_launch_us" not in r:
        return "-"
    triton = f" / {r['triton_launch_us']:.0f}" if "triton_launch_us" in r else ""
    return f"{r['oxide_launch_us']:.0f}{triton}"


if __name__ == "__main__":
    main()
