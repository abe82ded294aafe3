"""The tile GEMM built at LLVM -O1, -O2 and -O3: is the faster-compiling PTX as fast on the GPU?

    python benchmarks/opt_levels.py --build DIR                 # where the compiler is
    python benchmarks/opt_levels.py --run DIR [--runs 50] [--size 8192]   # on the GPU machine (runtime only)

examples/tile/gemm.rs (the 128x128x64 instance benchmarks/compile_time.py compiles) is built for each chip and
level into a temporary directory, checked against torch.mm, and the levels of one chip are timed interleaved
(one batch of each per round, benchmarks/torch_events.py): sm_90, the default target (one mma.sync entry, whose
PTX differs between the levels), and sm_90a, whose wgmma entries are the same PTX at every level but whose
mma.sync sibling, the entry for tensors TMA cannot read, differs at -O1; an N of size+1 makes rows TMA cannot
read and so times that sibling. docs/compile-time.md has the compile times of the levels.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SOURCE = ROOT / "examples" / "tile" / "gemm.rs"
INSTANCES = {"gemm": [["128", "128", "64"]]}
LEVELS = (3, 2, 1)
# (chip, the N of the case as an offset from the size: +1 makes rows of an odd byte length)
CASES = (("sm_90", 0), ("sm_90a", 0), ("sm_90a", 1))


def build(out: Path) -> None:
    """Every chip at every level, one artifact folder each (`<chip>_O<level>`)."""
    import oxide

    for chip in sorted({chip for chip, _ in CASES}):
        for level in LEVELS:
            oxide.build(SOURCE, chips=[chip], instances=INSTANCES, opt_level=level, cache=False,
                        out_dir=out / f"{chip}_O{level}")
            print(f"built {chip} -O{level}", flush=True)


def launcher(artifact: Path, m: int, n: int, k: int) -> tuple[Callable[[], None], bool]:
    """A launch of the artifact's GEMM on fresh bf16 inputs, and whether its result matches torch.mm."""
    import torch
    from cuda.bindings import driver

    import oxide.tile
    from oxide.runtime.module import load

    module = load(artifact, target="gpu")
    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    torch.manual_seed(m + n + k)
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.empty(m, n, device="cuda", dtype=torch.float32)
    part = oxide.tile.partition(c, (128, 128))
    kernel = module.gemm_128_128_64

    def launch() -> None:
        kernel[part.grid, stream](part, a, b)

    launch()
    expected = torch.mm(a, b, out_dtype=torch.float32)
    torch.cuda.synchronize()
    return launch, bool(torch.allclose(c, expected, rtol=2e-2, atol=2e-2))


def run(out: Path, size: int, runs: int) -> None:
    """Check and time every case at every level (artifacts from `build`); one line per case and level."""
    from benchmarks.torch_events import time_interleaved_ms

    for chip, extra in CASES:
        launches: dict[str, Callable[[], None]] = {}
        correct: dict[str, bool] = {}
        for level in LEVELS:
            artifact = next((out / f"{chip}_O{level}").glob("*.oxide.json"))
            launches[f"O{level}"], correct[f"O{level}"] = launcher(artifact, size, size + extra, size)
        times: dict[str, Any] = time_interleaved_ms(launches, runs)
        flops = 2.0 * size * (size + extra) * size
        for label, ms in times.items():
            print(f"{chip} {size}x{size + extra}x{size} {label}: {ms:.3f} ms, {flops / ms / 1e9:.1f} TFLOP/s, "
                  f"correct {correct[label]}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--build", type=Path, help="compile every chip and level into this directory")
    mode.add_argument("--run", type=Path, help="check and time the artifacts built in this directory")
    parser.add_argument("--size", type=int, default=4096, help="M = N = K (N plus the case's offset)")
    parser.add_argument("--runs", type=int, default=30, help="timed batches per level")
    args = parser.parse_args()
    if args.build:
        build(args.build)
    else:
        run(args.run, args.size, args.runs)


if __name__ == "__main__":
    main()
