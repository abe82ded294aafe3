"""Turn the suite's results.json into RESULTS.md and a PNG chart of the oxide/nvcc speed ratios.

`write_report` runs at the end of run.py (numpy only; the chart needs matplotlib and is skipped without it).
Rerun it alone with `python benchmarks/suite/report.py results.json OUT_DIR`.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def write_report(results: dict[str, Any], markdown: Path, chart: Path) -> None:
    """Write the Markdown report and (where matplotlib exists) the ratio chart."""
    gpu = results.get("gpu", {})
    after = results.get("gpu_after", {})
    copy = results["copy_gbs"]
    lines = [
        "# SIMT benchmark suite: oxide vs nvcc on the H200",
        "",
        f"Date: {results['date']}. GPU: {gpu.get('name', '?')}, driver {gpu.get('driver_version', '?')}; SM clock "
        f"{gpu.get('clocks.sm', '?')} before and {after.get('clocks.sm', '?')} after the run (max "
        f"{gpu.get('clocks.max.sm', '?')}), memory clock {gpu.get('clocks.mem', '?')}.",
        f"Method: CUDA events around each launch, median of {results['runs']} after 5 warm-ups, random inputs "
        "(never zeros) larger than L2, every result checked against numpy. oxide's kernels are its PTX "
        "(loaded by the driver); nvcc's are `nvcc -O3 -arch=sm_90` cubins of the same algorithm, same grid and block."
        + (" **Quick run: small sizes, not a measurement.**" if results.get("quick") else ""),
        "",
        f"Measured ceilings in the same run: device-to-device copy **{copy:.0f} GB/s** (bytes read + written); "
        f"cuBLAS FP32 SGEMM (TF32 off, 8192^3) **{_fmt(results.get('sgemm_ceiling_tflops'))} TFLOP/s**.",
        "",
        "| kernel | size | oxide ms | nvcc ms | oxide/nvcc speed | oxide | nvcc | % of ceiling (oxide) | reference ms | correct |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    ratios = {}
    for name, r in results["cases"].items():
        if "error" in r:
            lines.append(f"| {name} | - | - | - | - | - | - | - | - | error: {r['error']} |")
            continue
        ratios[name] = r["ratio"]
        size = r.get("n", r.get("shape"))
        if "oxide_tflops" in r and "oxide_gbs" not in r:
            unit, ours, peer = "TFLOP/s", r["oxide_tflops"], r["nvcc_tflops"]
            ceiling = results.get("sgemm_ceiling_tflops")
            pct = 100 * ours / ceiling if ceiling else None
        else:
            unit, ours, peer = "GB/s", r["oxide_gbs"], r["nvcc_gbs"]
            pct = 100 * ours / copy
        correct = "yes" if r["oxide_correct"] and r["nvcc_correct"] else \
            f"oxide {r['oxide_max_rel_error']:.1e}, nvcc {r['nvcc_max_rel_error']:.1e}"
        lines.append(f"| {name} | {size} | {r['oxide_ms']:.3f} | {r['nvcc_ms']:.3f} | {r['ratio']:.3f}x | "
                     f"{ours:.1f} {unit} | {peer:.1f} {unit} | {_fmt(pct)}% | {_fmt(r.get('reference_ms'), 3)} | "
                     f"{correct} |")
    if ratios:
        geomean = math.exp(sum(math.log(v) for v in ratios.values()) / len(ratios))
        lines += ["", f"Geometric mean of oxide/nvcc speed: **{geomean:.3f}x** over {len(ratios)} kernels "
                      f"(worst: {min(ratios, key=ratios.get)} at {min(ratios.values()):.3f}x)."]
    compile_times = results.get("oxide_compile")
    peers = results.get("peer_compile", {})
    lines += ["", "## Compile time", ""]
    if compile_times:
        kernels = compile_times["kernels"]
        total = sum(k["cold_ms"] for k in kernels.values())
        lines += ["| kernel | oxide .rs to PTX (ms) | oxide cached (ms) | nvcc -O3 -cubin (ms) | NVRTC to PTX (ms) |",
                  "|---|---:|---:|---:|---:|"]
        for name, v in kernels.items():
            nvrtc = peers.get(name, {}).get("nvrtc_s")
            lines.append(f"| {name} | {v['cold_ms']:.1f} | {v['cached_ms']:.2f} | {_fmt(v.get('nvcc_ms'), 0)} | "
                         f"{_fmt(nvrtc and 1e3 * nvrtc, 0)} |")
        lines += ["", f"oxide, all {len(kernels)} kernels one after another: {total:.0f} ms (imports done); first "
                      f"compile in a fresh process, imports included: {compile_times['first_process_s']:.2f} s. "
                      "oxide and nvcc on the development machine (2 cores), each nvcc build a fresh process as on "
                      "the command line; NVRTC (CUDA 13.0) on the GPU machine, in one process, library loaded."]
    lines += [f"Triton's first vector-add launch (JIT compile): "
              f"{_fmt(results.get('triton_vecadd_compile_s'), 2)} s (GPU machine)."]
    markdown.write_text("\n".join(lines) + "\n")
    _chart(ratios, chart)


def _chart(ratios: dict[str, float], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    names = list(ratios)
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(names) + 1.5))
    ax.barh(names, [ratios[n] for n in names], color=["#2a7" if ratios[n] >= 0.9 else "#c53" for n in names])
    ax.axvline(1.0, color="black", linewidth=1)
    ax.axvline(0.9, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("oxide speed / nvcc speed (higher is better; 1.0 = parity)")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    data = json.loads(Path(sys.argv[1]).read_text())
    out = Path(sys.argv[2])
    write_report(data, out / "RESULTS.md", out / "ratios.png")
