"""The sm_90a tile GEMM under several settings of the lowering's knobs (docs/tile-hopper.md, "Knobs"), against
cuBLAS writing the same output type, in one run: how each pipeline shape (thread 0 filling the ring between
its MMAs, a producer warpgroup, a persistent producer/consumer kernel) and tile shape performs. It is how the
defaults were chosen, and the search space a tuner walks.

Two steps, because the GPU machine has only the runtime:

    python benchmarks/tile/sweep.py --build DIR      # where the compiler is: one artifact per configuration
    python benchmarks/tile/sweep.py --run DIR [--runs 30] [--sizes 4096 8192]   # on the GPU: DIR/sweep.json

Every result is checked against cuBLAS before it is timed; timing is torch's CUDA events (median of --runs
samples of 10 back-to-back launches) on torch's stream, bf16 inputs from randn, f32 output; the fp8
configurations take the same values as e4m3 (B column-major) and are checked against torch._scaled_mm.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

GEMM = ROOT / "examples" / "tile" / "gemm.rs"
PRECISIONS = ROOT / "examples" / "tile" / "gemm_precisions.rs"
# name: ((BM, BN), knobs). BK is 64 (one 128-byte swizzle row of bf16). Names starting with "bf16out" build
# examples/tile/gemm_precisions.rs with a bf16 output (compared with cuBLAS writing bf16); the others
# examples/tile/gemm.rs (f32 output).
CONFIGS: dict[str, tuple[tuple[int, int], dict[str, str]]] = {
    "bf16out_128x256_tma": ((128, 256), {}),
    "bf16out_128x256_regstore": ((128, 256), {"epilogue": "registers"}),
    "inline_128x128": ((128, 128), {"specialize": "off"}),
    "specialized_128x128": ((128, 128), {"persistent": "off"}),
    "persistent_128x128": ((128, 128), {}),
    "persistent_128x128_w8": ((128, 128), {"warps": "8"}),
    "specialized_128x256": ((128, 256), {"persistent": "off"}),
    "persistent_128x256": ((128, 256), {}),
    "persistent_128x256_regstore": ((128, 256), {"epilogue": "registers"}),
    "specialized_128x256_regstore": ((128, 256), {"persistent": "off", "epilogue": "registers"}),
    "persistent_128x256_s3": ((128, 256), {"stages": "3"}),
    "persistent_256x128": ((256, 128), {}),
    # Thread-block clusters (docs/tile-hopper.md, "Clusters"): two blocks share B (2x1) or A (1x2) by TMA multicast.
    "persistent_128x256_c2x1": ((128, 256), {"cluster": "2x1"}),
    "persistent_128x256_c1x2": ((128, 256), {"cluster": "1x2"}),
    "persistent_128x128_c2x1": ((128, 128), {"cluster": "2x1"}),
    "bf16out_128x256_c2x1": ((128, 256), {"cluster": "2x1"}),
    # fp8 e4m3 -> bf16 with a column-major B (examples/tile/gemm_fp8.rs, BK 128), against torch._scaled_mm: the
    # 128 x 128 default (full-width partial sums) and 128 x 256 (partial sums of 64-column chunks).
    "fp8_128x128": ((128, 128), {}),
    "fp8_128x256": ((128, 256), {}),
    # fp8's ring depth, clusters and L2 grouping: cuBLAS's fp8 kernel on the H200 keeps 6 stages of 128 K.
    "fp8_128x128_s6": ((128, 128), {"stages": "6"}),
    "fp8_128x128_c2x1": ((128, 128), {"cluster": "2x1"}),
    "fp8_128x128_c1x2": ((128, 128), {"cluster": "1x2"}),
    "fp8_128x256_c2x1": ((128, 256), {"cluster": "2x1"}),
    "fp8_128x256_g16": ((128, 256), {"group_m": "16"}),
}
FP8 = ROOT / "examples" / "tile" / "gemm_fp8.rs"


def build(out: Path) -> None:
    """Compile every configuration for sm_90a into `out`/<name>/."""
    import oxide

    for name, ((bm, bn), knobs) in CONFIGS.items():
        source, types, bk = (PRECISIONS, ["bf16", "bf16"], "64") if name.startswith("bf16out") else \
            (FP8, ["f8e4m3fn", "bf16"], "128") if name.startswith("fp8") else (GEMM, [], "64")
        path = oxide.build(source, chips=["sm_90a"], instances={"gemm": [[*types, str(bm), str(bn), bk]]},
                           knobs=knobs or None, out_dir=out / name)
        print(f"built {name}: {path.name}")


def run(out: Path, runs: int, sizes: list[int], only: list[str] | None = None) -> None:
    """Time every configuration built in `out` (those named in `only`, if given) at each size^3; write
    out/sweep.json and print a table."""
    import torch
    from cuda.bindings import driver

    import oxide.tile
    from benchmarks.torch_events import time_ms
    from oxide.runtime.module import load

    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    results: dict[str, dict[str, float]] = {}
    for size in sizes:
        torch.manual_seed(size)
        a = torch.randn(size, size, device="cuda").to(torch.bfloat16)
        b = torch.randn(size, size, device="cuda").to(torch.bfloat16)
        reference = torch.mm(a, b, out_dtype=torch.float32)
        flops = 2.0 * size ** 3
        cublas = flops / time_ms(lambda: torch.mm(a, b, out_dtype=torch.float32), runs) / 1e9
        results.setdefault("cublas_f32", {})[str(size)] = cublas
        results.setdefault("cublas_bf16", {})[str(size)] = flops / time_ms(lambda: torch.mm(a, b), runs) / 1e9
        a8 = a.float().to(torch.float8_e4m3fn)
        b8 = b.float().t().contiguous().to(torch.float8_e4m3fn).t()  # [K, N] column-major, as _scaled_mm takes it
        one = torch.ones((), device="cuda")
        scaled_mm = lambda: torch._scaled_mm(a8, b8, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)  # noqa: E731
        results.setdefault("scaled_mm", {})[str(size)] = flops / time_ms(scaled_mm, runs) / 1e9
        for name, ((bm, bn), _) in CONFIGS.items():
            if only and name not in only:
                continue
            if name.startswith("fp8"):
                results.setdefault(name, {})[str(size)] = _time_fp8(out / name, (bm, bn), a8, b8, scaled_mm, runs,
                                                                    stream)
                continue
            module = load(next((out / name).glob("*.oxide.json")), target="gpu")
            bf16 = name.startswith("bf16out")
            c = torch.empty(size, size, device="cuda", dtype=torch.bfloat16 if bf16 else torch.float32)
            part = oxide.tile.partition(c, (bm, bn))
            launch = lambda: module.gemm[part.grid, stream](part, a, b)  # noqa: E731
            launch()
            torch.cuda.synchronize()
            error = (c.float() - reference).abs().max().item() / reference.abs().max().item()
            if error > (1e-2 if bf16 else 1e-3):
                raise SystemExit(f"{name} at {size}^3: wrong result (max relative error {error:.2e})")
            results.setdefault(name, {})[str(size)] = flops / time_ms(launch, runs) / 1e9
    (out / "sweep.json").write_text(json.dumps(results, indent=2))
    print(f"{'configuration':28}" + "".join(f"{s:>16}" for s in sizes))
    for name, by_size in results.items():
        peer = results["scaled_mm" if name.startswith("fp8") else "cublas_bf16" if name.startswith("bf16out")
                       else "cublas_f32"]
        cells = "".join(f"{by_size[str(s)]:9.1f} ({by_size[str(s)] / peer[str(s)]:4.2f}x)" for s in sizes)
        print(f"{name:28}{cells}")


def _time_fp8(folder: Path, tile: tuple[int, int], a8: "object", b8: "object", scaled_mm: "object", runs: int,
              stream: "object") -> float:
    """TFLOP/s of an fp8 configuration (e4m3 -> bf16), its result checked against torch._scaled_mm first."""
    import torch

    import oxide.tile
    from benchmarks.torch_events import time_ms
    from oxide.runtime.module import load

    module = load(next(folder.glob("*.oxide.json")), target="gpu")
    m, n = a8.shape[0], b8.shape[1]
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    part = oxide.tile.partition(c, tile)
    kernel = getattr(module, f"gemm_f8e4m3fn_bf16_{tile[0]}_{tile[1]}_128")
    launch = lambda: kernel[part.grid, stream](part, a8, b8)  # noqa: E731
    launch()
    expected = scaled_mm().float()
    torch.cuda.synchronize()
    error = (c.float() - expected).abs().max().item() / expected.abs().max().item()
    if error > 1e-2:
        raise SystemExit(f"{folder.name} at {m}^3: wrong result (max relative error {error:.2e})")
    return 2.0 * m * n * a8.shape[1] / time_ms(launch, runs) / 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--build", type=Path, help="compile the configurations into this directory")
    mode.add_argument("--run", type=Path, help="time the configurations built in this directory")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--sizes", type=int, nargs="+", default=[4096, 8192])
    ap.add_argument("--only", nargs="+", metavar="NAME", help="time only these configurations (with --run)")
    args = ap.parse_args()
    if args.build:
        build(args.build)
    else:
        run(args.run, args.runs, args.sizes, args.only)


if __name__ == "__main__":
    main()
