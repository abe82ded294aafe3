"""Build the suite's oxide kernels to PTX (benchmarks/suite/build/) and measure oxide's compile times.

Run on the development machine (the GPU machine has no MLIR wheels); the build folder then travels to the GPU
machine with the working tree. Compile times per kernel, written to build/compile_times.json:
- `cold_ms`: .rs to PTX in a process whose imports are done, with a fresh MLIR context (median of 5);
- `cached_ms`: `oxide.build` of the unchanged file, answered by the artifact cache (median of 5);
- `nvcc_ms`: `nvcc -O3 -arch=sm_90 -cubin` of the kernel's peer (kernels/peers/<name>.cu) on the same machine
  (median of 3 fresh processes);
- `first_process_s`: the very first compile in a fresh Python process, imports included (one kernel).

    python benchmarks/suite/build.py
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples" / "rust"
SHARED_EXAMPLES = ("transpose.rs",)  # an example kernel timed as it is (its nvcc peer: kernels/peers/transpose.cu)


def _nvcc_ms(peer: Path) -> float | None:
    """Median of 3 `nvcc -O3 -arch=sm_90 -cubin` builds of a peer, each a fresh process as on the command line
    (None where nvcc is not installed)."""
    if shutil.which("nvcc") is None:
        return None
    runs = []
    with tempfile.TemporaryDirectory() as out:
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-cubin", "-o", f"{out}/peer.cubin", str(peer)], check=True)
            runs.append(time.perf_counter() - start)
    return 1e3 * statistics.median(runs)


def main() -> None:
    import oxide

    out = HERE / "build"
    out.mkdir(exist_ok=True)
    times: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as cache:
        import os

        os.environ["OXIDE_CACHE_DIR"] = cache
        # The suite's own kernels, plus the examples it times as they are.
        for source in sorted([*(HERE / "kernels").glob("*.rs"), *(EXAMPLES / name for name in SHARED_EXAMPLES)]):
            text = source.read_text()
            cold = []
            for _ in range(5):
                start = time.perf_counter()
                module = oxide.compile(text, source.name, "sm_90")
                cold.append(time.perf_counter() - start)
            (out / f"{source.stem}.ptx").write_text(module.ptx["sm_90"])
            oxide.build(source, chips=["sm_90"])
            cached = []
            for _ in range(5):
                start = time.perf_counter()
                oxide.build(source, chips=["sm_90"])
                cached.append(time.perf_counter() - start)
            times[source.stem] = {"cold_ms": 1e3 * statistics.median(cold), "cached_ms": 1e3 * statistics.median(cached),
                                  "nvcc_ms": _nvcc_ms(HERE / "kernels" / "peers" / f"{source.stem}.cu")}
            print(f"{source.stem:10} cold {times[source.stem]['cold_ms']:7.1f} ms   cached {times[source.stem]['cached_ms']:6.2f} ms")
    probe = ("import time; t = time.perf_counter(); import oxide; "
             f"oxide.compile(open({str(HERE / 'kernels' / 'vecadd.rs')!r}).read(), 'vecadd.rs', 'sm_90'); "
             "print(time.perf_counter() - t)")
    first = float(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout)
    (out / "compile_times.json").write_text(json.dumps({"kernels": times, "first_process_s": first}, indent=2))
    print(f"first compile in a fresh process (imports included): {first:.2f} s")


if __name__ == "__main__":
    main()
