"""The batched GEMM cases of the tile benchmark (run.py): the sm_90a batched tile GEMM (examples/tile/batch_matmul.rs,
artifact tests/fixtures/tile_sm90a/batch_matmul.*: rank-3 tensor maps, one persistent walk over batch x tile rows x
tile columns) against cuBLAS's batched GEMM (`torch.bmm`) writing the same output type, at the issue's sizes:
16 x 1024^3 and 8 x 2048^3, bf16 in, bf16 and f32 out.

oxide runs its 128 x 256 instance. Each result is checked against torch.bmm first, then the two are timed
interleaved (a batch of launches of each per round), and `oxide_tflops`, `cublas_tflops`, `ratio` (cuBLAS time /
oxide time) are recorded per case. Run it alone on the GPU machine: `python benchmarks/tile/bmm_suite.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

import oxide.tile  # noqa: E402
from benchmarks.torch_events import time_interleaved_ms  # noqa: E402

# name: (batch, M, N, K, output)
CASES = {
    "bmm_sm90a_bf16_16x1024": (16, 1024, 1024, 1024, "bf16"),
    "bmm_sm90a_bf16_8x2048": (8, 2048, 2048, 2048, "bf16"),
    "bmm_sm90a_bf16_f32_16x1024": (16, 1024, 1024, 1024, "f32"),
    "bmm_sm90a_bf16_f32_8x2048": (8, 2048, 2048, 2048, "f32"),
}
TILE = (128, 256)
DTYPES = {"bf16": torch.bfloat16, "f32": torch.float32}


def describe(name: str) -> str:
    """The size column of RESULTS.md for a case."""
    batch, m, n, k, out = CASES[name]
    return f"{batch} x {m}x{n}x{k} bf16 -> {out}, sm_90a; no Triton peer, ratio to cuBLAS (torch.bmm)"


def cublas(a: Any, b: Any, out: str) -> Any:
    """cuBLAS's batched GEMM writing `out`, with no cast in the timed region."""
    return torch.bmm(a, b, out_dtype=torch.float32) if out == "f32" else torch.bmm(a, b)


def run(module: Any, stream: Any, results: dict[str, Any], runs: int) -> None:
    """Run every case (`module`: the sm_90a batch_matmul artifact) and record it in `results`."""
    bm, bn = TILE
    for name, (batch, m, n, k, out) in CASES.items():
        torch.manual_seed(batch + m + n + k)
        a = torch.randn(batch, m, k, device="cuda").to(torch.bfloat16)
        b = torch.randn(batch, k, n, device="cuda").to(torch.bfloat16)
        c = torch.empty(batch, m, n, device="cuda", dtype=DTYPES[out])
        part = oxide.tile.partition(c, (1, bm, bn))
        kernel = getattr(module, f"batch_matmul_bf16_{out}_{bm}_{bn}_64")
        ours = lambda kernel=kernel, part=part: kernel[part.grid, stream](part, a, b)  # noqa: E731
        reference = lambda a=a, b=b, out=out: cublas(a, b, out)  # noqa: E731
        ours()
        expected = reference().float()
        torch.cuda.synchronize()
        tol = 2e-2 if out == "f32" else 3e-2  # one rounding of an f32 sum of k products
        r: dict[str, Any] = {"oxide_correct": bool(torch.allclose(c.float(), expected, rtol=tol, atol=tol))}
        for label, ms in time_interleaved_ms({"oxide": ours, "cublas": reference}, runs).items():
            r[f"{label}_ms"], r[f"{label}_tflops"] = ms, 2.0 * batch * m * n * k / ms / 1e9
        r["ratio"] = r["cublas_ms"] / r["oxide_ms"]
        results[name] = r
        print(name, {key: round(v, 3) if isinstance(v, float) else v for key, v in r.items()}, flush=True)


def main() -> None:
    from cuda.bindings import driver

    from oxide.runtime.module import load

    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    module = load(ROOT / "tests" / "fixtures" / "tile_sm90a" / "batch_matmul.oxide.json", target="gpu")
    run(module, stream, {}, 30)


if __name__ == "__main__":
    main()
