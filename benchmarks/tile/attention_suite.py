"""The attention cases of the tile benchmark (run.py): examples/tile/attention.rs (artifacts in
tests/fixtures/tile_sm90a/) against torch's scaled_dot_product_attention on its cuDNN and FlashAttention-2
backends, bf16, non-causal and causal, at B=4 H=32 S=4096 D=128 and B=16 H=16 S=1024 D=64. FLOPs are
4 * B * H * S^2 * D (two products), halved for causal. Each case records oxide_tflops, cudnn_tflops,
flash_tflops, whether oxide's output matches SDPA (bf16 tolerance, docs/tile-attention.md) and ratio (oxide
over cuDNN). Run it alone: `python benchmarks/tile/attention_suite.py` on the GPU machine; with
`--knob pingpong=off` (or `specialize=off`, repeatable) it times the example built with those knobs instead."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import oxide.tile  # noqa: E402
from benchmarks.torch_events import time_ms  # noqa: E402

# name: (B, H, S, D, causal, BM, BN): the instance of attention.rs each case runs.
CASES = {
    "attention_b4_h32_s4096_d128": (4, 32, 4096, 128, False, 128, 64),
    "attention_causal_b4_h32_s4096_d128": (4, 32, 4096, 128, True, 128, 64),
    "attention_b16_h16_s1024_d64": (16, 16, 1024, 64, False, 128, 64),
    "attention_causal_b16_h16_s1024_d64": (16, 16, 1024, 64, True, 128, 64),
    # The same cases with 128-key blocks (both fit without spills since the masks and P left shared memory).
    "attention_b4_h32_s4096_d128_bn128": (4, 32, 4096, 128, False, 128, 128),
    "attention_causal_b4_h32_s4096_d128_bn128": (4, 32, 4096, 128, True, 128, 128),
    "attention_b16_h16_s1024_d64_bn128": (16, 16, 1024, 64, False, 128, 128),
    "attention_causal_b16_h16_s1024_d64_bn128": (16, 16, 1024, 64, True, 128, 128),
}
# bf16 output of an f32 softmax-weighted sum: see docs/tile-attention.md, "Accuracy".
TOLERANCE = 2e-2


def describe(name: str) -> str:
    """The case's size, for RESULTS.md."""
    b, h, s, d, causal, bm, bn = CASES[name]
    return f"B={b} H={h} S={s} D={d} bf16{' causal' if causal else ''}, {bm}x{bn} blocks; ratio to cuDNN SDPA"


def _sdpa(backend: Any, q: Any, k: Any, v: Any, causal: bool) -> Any:
    from torch.nn.attention import sdpa_kernel

    with sdpa_kernel(backend):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)


def run_case(module: Any, stream: Any, name: str, runs: int) -> dict[str, Any]:
    """One case: correctness against SDPA (cuDNN), then the three timings."""
    from torch.nn.attention import SDPBackend

    b, h, s, d, causal, bm, bn = CASES[name]
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    out = torch.empty(b * h, s, d, device="cuda", dtype=torch.bfloat16)
    part = oxide.tile.partition(out, (1, bm, d))
    kernel = getattr(module, f"attention{'_causal' if causal else ''}_{bm}_{bn}_{d}")
    scale_log2 = math.log2(math.e) / math.sqrt(d)

    def ours() -> None:
        kernel[part.grid, stream](part, q, k, v, scale_log2)

    ours()
    expected = _sdpa(SDPBackend.CUDNN_ATTENTION, q, k, v, causal)
    torch.cuda.synchronize()
    got = out.view(b, h, s, d).float()
    r: dict[str, Any] = {"oxide_correct": bool(torch.allclose(got, expected.float(), rtol=TOLERANCE,
                                                              atol=TOLERANCE))}
    flops = 4.0 * b * h * s * s * d / (2 if causal else 1)
    for label, fn in (("oxide", ours), ("cudnn", lambda: _sdpa(SDPBackend.CUDNN_ATTENTION, q, k, v, causal)),
                      ("flash", lambda: _sdpa(SDPBackend.FLASH_ATTENTION, q, k, v, causal))):
        try:
            ms = time_ms(fn, runs)
        except RuntimeError as exc:  # a backend this torch build or GPU lacks
            r[f"{label}_error"] = str(exc).splitlines()[0]
            continue
        r[f"{label}_ms"], r[f"{label}_tflops"] = ms, flops / ms / 1e9
    # A missing timing reads NaN (its *_error says why), so the report still has its row.
    r.setdefault("cudnn_tflops", math.nan)
    r["ratio"] = r["cudnn_ms"] / r["oxide_ms"] if "cudnn_ms" in r and "oxide_ms" in r else math.nan
    return r


def run(module: Any, stream: Any, results: dict[str, Any], runs: int) -> None:
    """Every case into `results`, printed as it completes."""
    for name in CASES:
        results[name] = run_case(module, stream, name, runs)
        print(name, {key: round(v, 4) if isinstance(v, float) else v for key, v in results[name].items()},
              flush=True)


def _compiled(knobs: list[str], out: Path) -> Path:
    """examples/tile/attention.rs built for sm_90a with the fixture's instances and `knobs` (`name=value`), its
    artifact written under `out`."""
    import oxide
    from tests.fixtures.sources import TILE_SM90A_INSTANCES

    source = HERE.parents[1] / "examples" / "tile" / "attention.rs"
    text = source.read_text()
    options = dict(k.split("=", 1) for k in knobs)
    return oxide.compile(text, "attention.rs", "sm_90a", TILE_SM90A_INSTANCES["attention"],
                         knobs=options).artifact(text).write(out)


if __name__ == "__main__":
    import argparse
    import tempfile

    from cuda.bindings import driver

    from oxide.runtime.module import load

    ap = argparse.ArgumentParser(description="Time the attention cases (the fixture, or built with --knob).")
    ap.add_argument("--knob", action="append", default=[], help="name=value, e.g. pingpong=off or specialize=off")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fixture = _compiled(args.knob, Path(tmp)) if args.knob else \
            HERE.parents[1] / "tests" / "fixtures" / "tile_sm90a" / "attention.oxide.json"
        found: dict[str, Any] = {}
        run(load(fixture, target="gpu"), driver.CUstream(torch.cuda.current_stream().cuda_stream), found, 20)
