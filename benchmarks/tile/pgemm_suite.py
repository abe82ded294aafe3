"""The persistent GEMM cases of the tile benchmark (run.py `--suites pgemm`): the sm_90a persistent GEMM on a mapped
output (examples/tile/persistent_gemm_mixed.rs, artifact tests/fixtures/tile_sm90a/persistent_gemm_mixed.*: the
kernel's own `iter_indices()` walk on the TMA + wgmma pipeline) against cuBLAS (`torch.matmul`) writing the same
output type, at 4096^3 and 8192^3, bf16 in, bf16 and f32 out.

oxide runs its 128 x 256 instance in work items of one tile on one block per SM. Each result is checked against
cuBLAS first, then the two are timed interleaved (a batch of launches of each per round), and `oxide_tflops`,
`cublas_tflops`, `ratio` (cuBLAS time / oxide time) are recorded per case. Run it alone on the GPU machine:
`python benchmarks/tile/pgemm_suite.py`.
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

# name: (M, N, K, output)
CASES = {
    "pgemm_sm90a_bf16_4096": (4096, 4096, 4096, "bf16"),
    "pgemm_sm90a_bf16_8192": (8192, 8192, 8192, "bf16"),
    "pgemm_sm90a_bf16_f32_4096": (4096, 4096, 4096, "f32"),
    "pgemm_sm90a_bf16_f32_8192": (8192, 8192, 8192, "f32"),
}
TILE = (128, 256)
DTYPES = {"bf16": torch.bfloat16, "f32": torch.float32}


def describe(name: str) -> str:
    """The size column of RESULTS.md for a case."""
    m, n, k, out = CASES[name]
    return f"{m}x{n}x{k} bf16 -> {out}, mapped output, sm_90a; no Triton peer, ratio to cuBLAS (torch.matmul)"


def cublas(a: Any, b: Any, out: str) -> Any:
    """cuBLAS's GEMM writing `out`, with no cast in the timed region (torch.mm's `out_dtype`; a torch without it
    times the bf16-output GEMM, which writes half the bytes)."""
    if out == "f32":
        try:
            return torch.mm(a, b, out_dtype=torch.float32)
        except TypeError:
            pass
    return torch.mm(a, b)


def run(module: Any, stream: Any, results: dict[str, Any], runs: int) -> None:
    """Run every case (`module`: the sm_90a persistent_gemm_mixed artifact) and record it in `results`."""
    bm, bn = TILE
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for name, (m, n, k, out) in CASES.items():
        torch.manual_seed(m + n + k)
        a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
        b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
        c = torch.empty(m, n, device="cuda", dtype=DTYPES[out])
        part = oxide.tile.partition(c, (bm, bn))
        mapped = part.map((1, 1), min(sms, part.grid[0] * part.grid[1]))
        kernel = getattr(module, f"gemm_persistent_mixed_bf16_{out}_{bm}_{bn}_64_1x1")
        ours = lambda kernel=kernel, mapped=mapped: kernel[(mapped.blocks, 1, 1), stream](mapped, a, b)  # noqa: E731
        reference = lambda a=a, b=b, out=out: cublas(a, b, out)  # noqa: E731
        ours()
        expected = reference().float()
        torch.cuda.synchronize()
        tol = 2e-2 if out == "f32" else 3e-2  # one rounding of an f32 sum of k products
        r: dict[str, Any] = {"oxide_correct": bool(torch.allclose(c.float(), expected, rtol=tol, atol=tol))}
        for label, ms in time_interleaved_ms({"oxide": ours, "cublas": reference}, runs).items():
            r[f"{label}_ms"], r[f"{label}_tflops"] = ms, 2.0 * m * n * k / ms / 1e9
        r["ratio"] = r["cublas_ms"] / r["oxide_ms"]
        results[name] = r
        print(name, {key: round(v, 3) if isinstance(v, float) else v for key, v in r.items()}, flush=True)


def main() -> None:
    from cuda.bindings import driver

    from oxide.runtime.module import load

    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    module = load(ROOT / "tests" / "fixtures" / "tile_sm90a" / "persistent_gemm_mixed.oxide.json", target="gpu")
    run(module, stream, {}, 30)


if __name__ == "__main__":
    main()
