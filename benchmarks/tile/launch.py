"""Host cost of a tile-kernel launch: microseconds per `mod.add[grid, stream](partition, x, y)` of the tile
vecadd on torch tensors (partition, element type, grid and overlap checks included) and per call of a launch
prepared once, back to back on one stream without synchronising, against Triton's launch of its vecadd and
torch's `torch.add(out=)`.

    python benchmarks/tile/launch.py [--launches 20000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
from cuda.bindings import driver

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

import oxide.tile  # noqa: E402
from oxide.runtime.module import load  # noqa: E402

import triton_peers as peers  # noqa: E402

sys.path.insert(0, str(HERE.parent / "launch"))
from bench import timed  # noqa: E402  (the SIMT launch benchmark's timing: the same method for both)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--launches", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    n = 1 << 14
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    z, zt = torch.empty_like(x), torch.empty_like(x)
    mod = load(HERE.parents[1] / "tests" / "fixtures" / "tile" / "vecadd.oxide.json", target="gpu")
    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    part = oxide.tile.partition(z, (1024,))
    prepared = mod.add.prepare(part, x, y, stream=stream)
    rows = {
        "oxide `mod.add[grid, stream](partition, x, y)`": lambda: mod.add[part.grid, stream](part, x, y),
        "oxide prepared: `p = mod.add.prepare(partition, x, y, stream=s)`, then `p()`": prepared,
        "Triton `_vecadd[grid](x, y, z, n, BLOCK=1024)`": lambda: peers.run_vecadd(x, y, zt, 1024),
        "torch `torch.add(x, y, out=z)`": lambda: torch.add(x, y, out=zt),
    }
    print(f"GPU: {torch.cuda.get_device_name()}; {args.launches} launches x {args.repeat}, median\n")
    print("| launcher | µs per launch |\n|---|---:|")
    for label, fn in rows.items():
        print(f"| {label} | {timed(fn, torch.cuda.synchronize, args.launches, args.repeat):.2f} |")


if __name__ == "__main__":
    main()
