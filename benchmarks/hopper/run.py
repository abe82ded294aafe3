"""The SIMT Hopper GEMM (examples/rust/hopper_gemm.rs: TMA, a 4-stage mbarrier pipeline, wgmma m64n256k16,
a producer and two consumer warpgroups) against cuBLAS (torch.matmul, bf16 in, bf16 out, f32 accumulate) in
one run on the same GPU: TFLOP/s, the ratio, and % of the bf16 matmul ceiling measured in the same run.

Runs on the GPU machine with the runtime only: oxide's kernel is the artifact built beforehand with
`oxide build examples/rust/hopper_gemm.rs --chip sm_90a -o benchmarks/hopper/build`. Every launch goes through
oxide's runtime on torch's stream. Timing: CUDA events around 10 back-to-back launches, median of --runs such
samples after warm-up; random inputs (never zeros); every result is checked against torch first.

    python benchmarks/hopper/run.py --out DIR [--runs 20]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

import torch
from cuda.bindings import driver

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from oxide.runtime import TensorMap  # noqa: E402
from oxide.runtime.module import load  # noqa: E402
from benchmarks.torch_events import time_ms  # noqa: E402

STAGE_BYTES = (128 * 64 + 256 * 64) * 2
STAGES = 4
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]


def oxide_gemm(module: Any, a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, stream: Any) -> Callable[[], None]:
    """A launcher of C = A B^T (a [M, K], b [N, K], c [M, N], all bf16) through oxide's runtime."""
    (m, k), n = a.shape, b.shape[0]
    a_map = TensorMap(a, box=(128, 64), swizzle="128B")
    b_map = TensorMap(b, box=(256, 64), swizzle="128B")
    words = c.view(torch.uint32)  # the kernel stores bf16 pairs as 32-bit words
    launch = module.gemm_bf16.unchecked[((n + 255) // 256, (m + 127) // 128), 384, stream, STAGES * STAGE_BYTES]
    return lambda: launch(a_map, b_map, words, m, n, k)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--build", type=Path, default=HERE / "build" / "hopper_gemm.oxide.json")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    module = load(args.build, target="gpu")
    results: dict[str, Any] = {"device": torch.cuda.get_device_name(), "cases": {}}
    for m, n, k in SHAPES:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        run = oxide_gemm(module, a, b, c, stream)
        run()
        want = torch.matmul(a, b.T)
        torch.cuda.synchronize()
        err = ((c.float() - want.float()).abs() / (want.float().abs() + 1.0)).max().item()
        if not err < 2e-2:
            raise SystemExit(f"{m}x{n}x{k}: oxide's result differs from torch's (max relative error {err:.3g})")
        flops = 2 * m * n * k
        ox = time_ms(run, args.runs)
        cublas = time_ms(lambda: torch.matmul(a, b.T, out=c), args.runs)
        case = {"oxide_ms": ox, "cublas_ms": cublas, "oxide_tflops": flops / ox / 1e9,
                "cublas_tflops": flops / cublas / 1e9, "ratio": cublas / ox, "max_rel_err": err}
        results["cases"][f"bf16_{m}x{n}x{k}"] = case
        print(f"bf16 {m}x{n}x{k}: oxide {case['oxide_tflops']:.0f} TFLOP/s, cuBLAS {case['cublas_tflops']:.0f} "
              f"TFLOP/s, ratio {case['ratio']:.3f}", flush=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
