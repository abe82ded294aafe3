"""The GEMM cases of the tile benchmark (run.py): the sm_90a tile GEMM (examples/tile/gemm_precisions.rs,
artifacts in tests/fixtures/tile_sm90a/) against cuBLAS writing the same output type and against Triton's best of
a few configurations, at the sizes and output types of the issue: bf16 -> bf16, f16 -> f16 and bf16 -> f32 at
4096^3 and 8192^3, and the odd shapes 4095 x 4097 x 4096, 8192 x 8192 x 512 and 16384 x 128 x 4096.

oxide runs the faster of its 128 x 256 and 128 x 128 instances (both warp-specialized and persistent), as Triton
runs its best of five configurations. Where TMA cannot address a tensor's rows (N = 4097: rows of 8194 bytes) the
runtime copies it into a padded buffer for the launch, inside the timed launch (docs/tile-hopper.md, "Staged
operands"); an instance that refuses the tensors (staging off, and no mma.sync sibling at 128 x 256) is skipped.
The case records which one ran.

`run_fp8` is the fp8 case apart (it has no Triton peer here): e4m3 at 8192^3 with B column-major (the transpose
of an [N, K] tensor), bf16 out, oxide's 128 x 256 x 128 wgmma instance (examples/tile/gemm_fp8.rs, `FP8_TILE`)
against `torch._scaled_mm` with unit scales. Run it alone: `python benchmarks/tile/gemm_suite.py` on the GPU machine.
"""

from __future__ import annotations

from typing import Any, Callable

import torch

import oxide.tile
import triton_peers as peers
from benchmarks.torch_events import host_launch_us, time_interleaved_ms, time_ms
from oxide.runtime.errors import KernelArgumentError

# name: (M, N, K, input, output)
CASES = {
    "gemm_sm90a_bf16_4096": (4096, 4096, 4096, "bf16", "bf16"),
    "gemm_sm90a_bf16_8192": (8192, 8192, 8192, "bf16", "bf16"),
    "gemm_sm90a_f16_4096": (4096, 4096, 4096, "f16", "f16"),
    "gemm_sm90a_f16_8192": (8192, 8192, 8192, "f16", "f16"),
    "gemm_sm90a_bf16_f32_4096": (4096, 4096, 4096, "bf16", "f32"),
    "gemm_sm90a_bf16_f32_8192": (8192, 8192, 8192, "bf16", "f32"),
    "gemm_sm90a_bf16_4095x4097x4096": (4095, 4097, 4096, "bf16", "bf16"),
    "gemm_sm90a_bf16_8192x8192x512": (8192, 8192, 512, "bf16", "bf16"),
    "gemm_sm90a_bf16_16384x128x4096": (16384, 128, 4096, "bf16", "bf16"),
}
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
FP8_CASE = ("gemm_sm90a_fp8_e4m3_8192", 8192, 8192, 8192)
# The fp8 instance timed: 128 x 256 (promoted in 64-column chunks, docs/tile-hopper.md "fp8 at 128 x 256").
FP8_TILE = (128, 256)


def describe(name: str) -> str:
    """The size column of RESULTS.md for a case."""
    m, n, k, ein, eout = CASES[name]
    return f"{m}x{n}x{k} {ein} -> {eout}, sm_90a"


def cublas(a: Any, b: Any, out: str) -> Any:
    """cuBLAS's GEMM writing `out`, with no cast in the timed region."""
    return torch.mm(a, b, out_dtype=torch.float32) if out == "f32" else torch.mm(a, b)


def _oxide(module: Any, stream: Any, ein: str, eout: str, a: Any, b: Any, c: Any,
           runs: int) -> tuple[Callable[[], None], str]:
    """The launch of the fastest instance (128 x 256 or 128 x 128 tiles) that takes these tensors, and its tile:
    oxide's best of its instances, as Triton's side is its best of GEMM_CONFIGS."""
    found = []
    for bm, bn in ((128, 256), (128, 128)):
        kernel = getattr(module, f"gemm_{ein}_{eout}_{bm}_{bn}_64")
        part = oxide.tile.partition(c, (bm, bn))
        launch = lambda kernel=kernel, part=part: kernel[part.grid, stream](part, a, b)  # noqa: E731
        try:
            launch()
        except KernelArgumentError:
            continue  # TMA cannot read a tensor and this tile has no mma.sync sibling
        found.append((time_ms(launch, max(3, runs // 3)), launch, f"{bm}x{bn}"))
    if not found:
        raise RuntimeError(f"no gemm_{ein}_{eout} instance takes these tensors")
    _, launch, tile = min(found, key=lambda entry: entry[0])
    return launch, tile


def run(module: Any, stream: Any, results: dict[str, Any], runs: int) -> dict[str, str]:
    """Run every case: check oxide's and Triton's results against cuBLAS, then time the three interleaved
    (a batch of each per round: clock and power drift over the run affects them alike); record
    `oxide_tflops`, `cublas_tflops` and `triton_tflops` per case in `results`. Returns which tile each case ran."""
    tiles = {}
    for name, (m, n, k, ein, eout) in CASES.items():
        torch.manual_seed(m + n + k)
        a = torch.randn(m, k, device="cuda").to(DTYPES[ein])
        b = torch.randn(k, n, device="cuda").to(DTYPES[ein])
        c = torch.empty(m, n, device="cuda", dtype=DTYPES[eout])
        ct = torch.empty_like(c)
        ours, tiles[name] = _oxide(module, stream, ein, eout, a, b, c, runs)
        configs = [peers.gemm_config(a, b, ct, config) for config in peers.GEMM_CONFIGS]
        best = min(configs, key=lambda launch: time_ms(launch, max(3, runs // 3)))
        reference = lambda: cublas(a, b, eout)  # noqa: E731
        ours()
        best()
        expected = reference().float()
        torch.cuda.synchronize()
        # Every element of the output is one rounding of an f32 sum of k products.
        tol = 2e-2 if eout == "f32" else 3e-2
        r: dict[str, Any] = {f"{label}_correct": bool(torch.allclose(out.float(), expected, rtol=tol, atol=tol))
                             for label, out in (("oxide", c), ("triton", ct))}
        for label, ms in time_interleaved_ms({"oxide": ours, "triton": best, "cublas": reference}, runs).items():
            r[f"{label}_ms"], r[f"{label}_tflops"] = ms, 2.0 * m * n * k / ms / 1e9
        r["ratio"] = r["triton_ms"] / r["oxide_ms"]
        r["cublas_ratio"] = r["cublas_ms"] / r["oxide_ms"]
        r["oxide_launch_us"] = host_launch_us(ours)
        results[name] = r
        print(name, tiles[name], {key: round(v, 3) if isinstance(v, float) else v for key, v in r.items()}, flush=True)
    return tiles


def run_fp8(module: Any, stream: Any, runs: int) -> dict[str, Any]:
    """The fp8 case (`module`: the sm_90a gemm_fp8 artifact): checked against torch._scaled_mm, then both timed
    interleaved. Returns `oxide_tflops`, `scaled_mm_tflops`, `oxide_correct`."""
    name, m, n, k = FP8_CASE
    torch.manual_seed(m)
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn).t()  # [K, N], column-major, as _scaled_mm takes it
    one = torch.ones((), device="cuda", dtype=torch.float32)
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    part = oxide.tile.partition(c, FP8_TILE)
    kernel = getattr(module, f"gemm_f8e4m3fn_bf16_{FP8_TILE[0]}_{FP8_TILE[1]}_128")
    ours = lambda: kernel[part.grid, stream](part, a, b)  # noqa: E731
    reference = lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)  # noqa: E731
    ours()
    expected = reference().float()
    torch.cuda.synchronize()
    r: dict[str, Any] = {"oxide_correct": bool(torch.allclose(c.float(), expected, rtol=3e-2, atol=3e-2))}
    for label, ms in time_interleaved_ms({"oxide": ours, "scaled_mm": reference}, runs).items():
        r[f"{label}_ms"], r[f"{label}_tflops"] = ms, 2.0 * m * n * k / ms / 1e9
    r["ratio"] = r["scaled_mm_ms"] / r["oxide_ms"]
    print(name, {key: round(v, 3) if isinstance(v, float) else v for key, v in r.items()}, flush=True)
    return r
