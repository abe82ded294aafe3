#!/usr/bin/env python3
"""Run the kernels of cuda-oxide's Hopper examples on the emulator and on the GPU, and compare the results.

Usage:
    python benchmarks/yardstick/hopper_run.py EXAMPLES_DIR [--build-only] [--work DIR]
        [--out benchmarks/yardstick/hopper_report.md] [--only NAME...]

EXAMPLES_DIR is the `crates/rustc-codegen-cuda/examples` folder of an extracted cuda-oxide snapshot (see
README.md); nothing of it is copied into this repository. For each of the seven Hopper examples the device
source is bundled as run.py bundles it (written to --work), built for sm_90a through oxide's artifact cache,
and every kernel its host code launches is launched as that host code does (hopper_cases.py,
hopper_coop_cases.py): on the emulator, then on the GPU when one is present. The outputs of the two targets
are compared, and each is checked against what the example's host code checks. The report is a table per
kernel: emulator result, GPU result, equal?, notes.

--build-only compiles every bundle into the artifact cache ($OXIDE_CACHE_DIR) and runs nothing: run it where
the compiler is, carry the cache to the GPU machine, and the run there needs only the runtime (numpy and
cuda-python), since a cached build of the same bundle text, options and compiler version is not compiled again.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # run.py and the case modules sit beside this script

import oxide  # noqa: E402
from oxide.runtime import gpu_status  # noqa: E402

import hopper_cases  # noqa: E402
import hopper_coop_cases  # noqa: E402
from hopper_cases import Case, Outputs  # noqa: E402
from run import build_bundle, discover  # noqa: E402

EXAMPLES = ("wgmma", "wgmma_mma_bf16", "tma_copy", "tma_multicast", "cluster", "mcast_barrier_test",
            "coop_groups_demo")
CHIPS = ["sm_90a"]
LOCATED = re.compile(r"[^\s:]+\.rs(?=:\d+:\d+)")  # the path of a located diagnostic


def bundle_all(examples_dir: Path, work: Path, only: list[str]) -> dict[str, Path]:
    """Write each example's bundled device source to `work`/<name>.rs (the same text on every machine, so the
    artifact cache finds the build made elsewhere)."""
    found = {e.name: e for e in discover(examples_dir)}
    missing = [n for n in EXAMPLES if n not in found]
    if missing:
        raise SystemExit(f"error: {examples_dir} has no example {', '.join(missing)}; pass the "
                         "crates/rustc-codegen-cuda/examples folder of a cuda-oxide snapshot")
    work.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in EXAMPLES:
        if only and name not in only:
            continue
        path = work / f"{name}.rs"
        path.write_text(build_bundle(found[name], work))
        paths[name] = path
    return paths


def describe_error(exc: BaseException) -> str:
    """One line for the report: the exception's type and first line, plus the first located diagnostic (the
    refusal's `file:line:col: error: ...`) or blocked warp of a deadlock report, with the file's name only."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    detail = next((line for line in lines[1:] if LOCATED.search(line) or line.startswith("block (")), "")
    detail = LOCATED.sub(lambda m: Path(m.group(0)).name, detail)
    return f"{type(exc).__name__}: {lines[0] if lines else ''} {detail}".strip()[:600]


def run_case(case: Case, module: Any) -> tuple[Outputs | None, str, float]:
    """(outputs or None, the result cell, seconds) of one case on one loaded module."""
    start = time.perf_counter()
    try:
        out = case.run(module)
    except Exception as exc:  # a refused or failed launch is a result to report, not a reason to stop
        if "--debug" in sys.argv:
            traceback.print_exc()
        return None, "error: " + describe_error(exc), time.perf_counter() - start
    secs = time.perf_counter() - start
    failures = case.check(out)
    cell = "host check passed" if not failures else "host check FAILED: " + "; ".join(failures)
    return out, f"{cell} ({hopper_cases.describe(out)})" if "desc" in out else cell, secs


def compare(emu: Outputs | None, gpu: Outputs | None) -> str:
    """The "equal?" cell: whether the two targets' outputs are bit-equal (every float output of these kernels is
    a copy or a sum of small integers, which float32 computes exactly in any order)."""
    if emu is None or gpu is None:
        return "-"
    diffs = []
    for key in emu:
        a, b = emu[key], gpu[key]
        bad = np.flatnonzero(a != b)
        if bad.size:
            i = int(bad[0])
            diffs.append(f"{key}: {bad.size} differ (first [{i}]: emulator {a.flat[i]!r}, GPU {b.flat[i]!r})")
    return "yes" if not diffs else "no: " + "; ".join(diffs)


def all_cases() -> list[Case]:
    return hopper_cases.cases() + hopper_coop_cases.cases()


def load(path: Path, target: str) -> tuple[Any, str]:
    """(the module, "") or (None, why it could not be built or loaded)."""
    try:
        return oxide.load(path, chips=CHIPS, target=target), ""
    except Exception as exc:
        return None, "error: " + describe_error(exc)


def run_all(paths: dict[str, Path], use_gpu: bool, rows: list[dict[str, str]]) -> None:
    """Every case of the bundled examples, on the emulator and (with `use_gpu`) on the GPU, appended to `rows`
    as each finishes (the watchdog reports the ones done so far)."""
    for name, path in paths.items():
        emu_mod, emu_why = load(path, "cpu")
        launched = any(c.run is not None for c in all_cases() if c.example == name)
        # An example none of whose kernels may run (wgmma_mma_bf16's zero descriptors) is not loaded on the GPU:
        # the driver's PTX JIT (driver 580) crashes the process on that module, which ptxas 13.0 assembles.
        gpu_mod, gpu_why = load(path, "gpu") if use_gpu and launched else (None, "not run")
        for case in (c for c in all_cases() if c.example == name):
            row = {"example": name, "kernel": case.kernel, "launch": case.launch, "notes": case.note,
                   "emulator": "timed out", "gpu": "timed out" if use_gpu else "not run", "equal": "-"}
            rows.append(row)
            if case.run is None:
                row.update(emulator="compiled only" if emu_mod else emu_why,
                           gpu="compiled only (not loaded: the driver's JIT crashes on it)" if use_gpu else "not run")
                continue
            emu, row["emulator"], t_emu = run_case(case, emu_mod) if emu_mod else (None, emu_why, 0.0)
            if gpu_mod and "Deadlock" in row["emulator"]:
                # On the GPU the same wait spins forever and takes the process (and the GPU) with it.
                gpu, row["gpu"], t_gpu = None, "not launched: it deadlocks on the emulator, so it would hang", 0.0
            else:
                gpu, row["gpu"], t_gpu = run_case(case, gpu_mod) if gpu_mod else (None, gpu_why, 0.0)
            row["equal"] = compare(emu, gpu)
            row["seconds"] = f"{t_emu:.1f} / {t_gpu:.2f}" if gpu_mod else f"{t_emu:.1f} / -"
            print(f"{name:20s} {case.kernel:32s} emu: {row['emulator'][:60]:60s} gpu: {row['gpu'][:40]:40s} "
                  f"equal: {row['equal'][:40]}", flush=True)


def md(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def write_report(rows: list[dict[str, str]], args: argparse.Namespace, gpu_line: str, elapsed: float) -> str:
    launched = [r for r in rows if r["emulator"] != "compiled only"]
    L = ["# cuda-oxide's Hopper examples: emulator vs GPU\n",
         f"Examples: {', '.join(EXAMPLES)} (bundled by `run.py`, built for {', '.join(CHIPS)}).  ",
         f"GPU: {gpu_line}.  ",
         f"Wall time {elapsed:.0f} s. Produced by `python benchmarks/yardstick/hopper_run.py EXAMPLES_DIR`.\n",
         "Each row is one kernel launched as the example's host code launches it (inputs, grid, block, dynamic "
         "shared memory, tensor maps; cluster shape and cooperative launch from the kernel's attributes). "
         "\"host check\" is the check the example's host code applies to the output; \"equal?\" compares the "
         "emulator's outputs with the GPU's bit for bit (every float output here is a copy or a sum of small "
         "integers, exact in any order). Seconds: emulator / GPU, per row.\n",
         f"Kernels: {len(rows)}; launched: {len(launched)}; "
         f"host check passed on the emulator: {sum(r['emulator'].startswith('host check passed') for r in rows)}; "
         f"on the GPU: {sum(r['gpu'].startswith('host check passed') for r in rows)}; "
         f"emulator = GPU: {sum(r['equal'] == 'yes' for r in rows)}.\n",
         "| example | kernel | launch | emulator | GPU | equal? | seconds | notes |",
         "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        L.append(f"| {r['example']} | `{r['kernel']}` | {md(r['launch'])} | {md(r['emulator'])} | {md(r['gpu'])} | "
                 f"{md(r['equal'])} | {r.get('seconds', '-')} | {md(r['notes'])} |")
    return "\n".join(L) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("examples", type=Path)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "oxide-hopper-yardstick")
    ap.add_argument("--out", type=Path, default=HERE / "hopper_report.md")
    ap.add_argument("--build-only", action="store_true", help="build every bundle into the artifact cache, run nothing")
    ap.add_argument("--only", nargs="*", default=[], help="only these examples")
    ap.add_argument("--no-gpu", action="store_true", help="run the emulator column only, even with a GPU")
    ap.add_argument("--timeout", type=float, default=170.0,
                    help="seconds for the whole run; past it the report marks the running kernel \"timed out\"")
    ap.add_argument("--debug", action="store_true", help="print the traceback of a failed launch")
    args = ap.parse_args()
    paths = bundle_all(args.examples, args.work, args.only)
    start = time.perf_counter()
    if args.build_only:
        for name, path in paths.items():
            t = time.perf_counter()
            print(f"{name:20s} built {oxide.build(path, chips=CHIPS)} ({time.perf_counter() - t:.1f} s)", flush=True)
        return 0
    ok, why = gpu_status()
    use_gpu = ok and not args.no_gpu
    gpu_line = f"ran on the GPU ({why})" if use_gpu else f"not run ({'--no-gpu' if args.no_gpu else why})"
    rows: list[dict[str, str]] = []

    def give_up() -> None:
        # A kernel that never finishes on the GPU cannot be interrupted from Python: report what is done (the
        # running row reads "timed out") and end the process, which also ends its GPU context.
        args.out.write_text(write_report(rows, args, gpu_line, time.perf_counter() - start))
        print(f"timed out after {args.timeout:.0f} s; wrote {args.out}", flush=True)
        os._exit(2)

    watchdog = threading.Timer(args.timeout, give_up)
    watchdog.daemon = True
    watchdog.start()
    run_all(paths, use_gpu, rows)
    watchdog.cancel()
    args.out.write_text(write_report(rows, args, gpu_line, time.perf_counter() - start))
    print(f"wrote {args.out}")
    bad = [r for r in rows if "FAILED" in r["emulator"] + r["gpu"] or r["emulator"].startswith("error")
           or r["gpu"].startswith("error") or r["equal"].startswith("no")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
