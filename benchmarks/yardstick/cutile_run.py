#!/usr/bin/env python3
"""The cutile-rs yardstick: compile, emulate and (on a GPU machine) run the examples of cutile-rs.

Usage:
    python benchmarks/yardstick/cutile_run.py EXAMPLES_DIR [--only NAME...] [--build DIR] [--out REPORT]
    python benchmarks/yardstick/cutile_run.py --gpu DIR [--out REPORT]

EXAMPLES_DIR is the `cutile-examples/examples` folder of an extracted cutile-rs snapshot (see README.md); its
sources are read at run time and nothing of them is kept here. For every example, cutile_cases*.py say in
oxide's terms what its host program does. Three stages, each reported per example with the first error of a
failure:

  compiled          the kernels instantiated with the host code's generics, compiled in-process with oxide's
                    compiler for sm_90 (sm_90a where the example needs Hopper); ptxas checks the PTX where it
                    is installed. The Blackwell-only examples (mxfp8, nvfp4) pass this stage when oxide refuses
                    them with a located error that says they need sm_100.
  emulator-correct  the case run on oxide's emulator (smaller sizes where the case says so) against numpy.
  GPU-correct       `--build DIR` writes each example's artifact (host sizes), its inputs (or their seed, for
                    inputs too large to carry) and the two results above into DIR; `--gpu DIR` on a machine
                    with a GPU and only oxide's runtime (numpy, cuda-python; no compiler) runs them there against
                    numpy and writes the whole report.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the case modules sit beside this script

import cutile_cases  # noqa: E402
import cutile_cases_attention  # noqa: E402
import cutile_cases_mma  # noqa: E402
import cutile_cases_model  # noqa: E402
from cutile_cases import Case, Env, compare  # noqa: E402

REPORT = HERE / "cutile_report.md"
PASS = "correct"


def all_cases() -> list[Case]:
    """Every example's case, by example name order."""
    found = (cutile_cases.cases() + cutile_cases_mma.cases() + cutile_cases_model.cases()
             + cutile_cases_attention.cases())
    return sorted(found, key=lambda c: c.example)


def seed(case: Case) -> int:
    return zlib.crc32(case.example.encode())


def make_inputs(case: Case, stage: str) -> dict[str, np.ndarray]:
    return case.inputs(np.random.default_rng(seed(case)), case.sizes(stage))


def first_error(exc: BaseException) -> str:
    """One line for the report: a compiler diagnostic's first `file:line:col: error: ...` line (file name only),
    else the exception's type and first line; a Python error that is not oxide's own is an internal error."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    located = next((line for line in lines if ": error:" in line), lines[0] if lines else "")
    if ": error:" in located:
        path, _, rest = located.partition(": error:")
        located = f"{Path(path.split(':')[0]).name}:{':'.join(path.split(':')[1:])}: error:{rest}"
    kind = type(exc).__name__
    internal = not (kind.endswith("Error") and type(exc).__module__.startswith("oxide")) and kind not in (
        "NotImplementedError", "RuntimeError")
    return (f"internal error: {kind}: {located}" if internal else f"{kind}: {located}")[:500]


def is_located(message: str) -> bool:
    head = message.split(": error:")[0] if ": error:" in message else ""
    parts = head.rsplit(":", 2)
    return len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit()


# --- compiling (needs oxide's compiler) ----------------------------------------------------------------------


def compile_case(case: Case, source: Path, stage: str) -> tuple[Any, str]:
    """(the CompiledModule, "") or (None, the first error) for the case's instances at `stage`'s sizes."""
    import oxide

    try:
        compiled = oxide.compile(source.read_text(), source.name, case.chip, case.instances(case.sizes(stage)))
    except Exception as exc:  # a refusal is a result to report
        if "--debug" in sys.argv:
            traceback.print_exc()
        return None, first_error(exc)
    return compiled, ""


def ptxas_check(ptx: str, chip: str) -> str:
    """"" when ptxas accepts the PTX (or is not installed), else its first error line."""
    ptxas = shutil.which("ptxas")
    if ptxas is None:
        return ""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "k.ptx"
        path.write_text(ptx)
        done = subprocess.run([ptxas, f"-arch={chip}", str(path), "-o", os.devnull], capture_output=True, text=True)
    if done.returncode == 0:
        return ""
    return "ptxas: " + next((line for line in done.stderr.splitlines() if line.strip()), f"exit {done.returncode}")


def cache_check(case: Case, source: Path) -> str:
    """For the JIT-cache examples: "" when a second build of the same source is served from oxide's artifact
    cache (same entry, not rewritten), else what went wrong."""
    import oxide

    saved = os.environ.get("OXIDE_CACHE_DIR")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OXIDE_CACHE_DIR"] = tmp
        try:
            opts = {"chips": [case.chip], "instances": case.instances(case.host)}
            first = oxide.build(source, **opts)
            stamp = first.stat().st_mtime_ns
            second = oxide.build(source, **opts)
            if second != first or second.stat().st_mtime_ns != stamp:
                return "the second build was compiled again instead of read from the cache"
        except Exception as exc:
            return "cache: " + first_error(exc)
        finally:
            os.environ.pop("OXIDE_CACHE_DIR") if saved is None else os.environ.update(OXIDE_CACHE_DIR=saved)
    return ""


def compiled_cell(case: Case, source: Path) -> tuple[Any, str]:
    """The host-size build and the "compiled" cell."""
    compiled, error = compile_case(case, source, "host")
    if case.refusal is not None:
        if compiled is not None:
            return None, f"WRONG: compiled for {case.chip}; expected a located \"{case.refusal}\" refusal"
        ok = case.refusal in error and is_located(error)
        return None, ("refused as expected: " if ok else "WRONG refusal (expected a located "
                      f"\"{case.refusal}\" error): ") + error
    if compiled is None:
        return None, error
    problem = ptxas_check(compiled.ptx[case.chip], case.chip) or (cache_check(case, source) if case.cache_check
                                                                  else "")
    return (compiled, problem) if problem else (compiled, "compiled")


# --- running (oxide's runtime only) --------------------------------------------------------------------------


def run_case(case: Case, module: Any, stage: str, inputs: dict[str, np.ndarray]) -> str:
    """The result cell of one run: "correct", "FAILED: ..." or the first error."""
    try:
        got = case.run(Env(module), case.sizes(stage), inputs)
    except Exception as exc:
        if "--debug" in sys.argv:
            traceback.print_exc()
        return "error: " + first_error(exc)
    want = case.reference(case.sizes(stage), inputs)
    if module.target != "gpu":
        want = {k: v for k, v in want.items() if k not in case.gpu_only}
    failures = compare(got, want, case.tolerance)
    info = "; ".join(str(v) for k, v in got.items() if k.startswith("info") for v in np.ravel(v))
    cell = PASS if not failures else "FAILED: " + "; ".join(failures)
    return f"{cell} ({info})" if info else cell


def emulate(case: Case, source: Path, host_build: Any) -> str:
    """The emulator cell: the host build where the sizes are the host's, else a build at the emulator's sizes."""
    from oxide.runtime import load

    compiled, error = (host_build, "") if case.emulator is None else compile_case(case, source, "emulator")
    if compiled is None:
        return "not run: " + (error or "not compiled")
    if compiled.emulator is None:
        return "not run: the compiled module has no emulator program"
    with tempfile.TemporaryDirectory() as tmp:
        try:
            module = load(compiled.artifact(source.read_text()).write(tmp), target="cpu")
        except Exception as exc:
            return "error: " + first_error(exc)
        return run_case(case, module, "emulator", make_inputs(case, "emulator"))


def examine(case: Case, examples: Path, build: Path | None) -> dict[str, Any]:
    """The compile and emulator cells of one example; with `build`, its artifact and inputs written there."""
    row = {"example": case.example, "gpu": "not run (no --gpu run yet)"}
    source = examples / f"{case.example}.rs"
    if not source.is_file():
        return {**row, "compiled": f"missing: no {source.name} in the examples folder", "emulator": "not run"}
    start = time.perf_counter()
    compiled, row["compiled"] = compiled_cell(case, source)
    if case.refusal is not None:
        return {**row, "emulator": "out of scope", "gpu": "out of scope"}
    row["emulator"] = emulate(case, source, compiled) if compiled is not None else "not run: not compiled"
    row["seconds"] = round(time.perf_counter() - start, 1)
    if build is not None and compiled is not None:
        row["artifact"] = write_build(case, compiled, source, build)
    return row


def write_build(case: Case, compiled: Any, source: Path, build: Path) -> str:
    """Write the host-size artifact under build/<example>/, with the inputs where the case runs the host's sizes
    on the emulator too (the others are regenerated from their seed on the GPU machine)."""
    folder = build / case.example
    folder.mkdir(parents=True, exist_ok=True)
    artifact = compiled.artifact(source.read_text()).write(folder)
    if case.emulator is None:  # sizes the emulator runs are small enough to carry; larger inputs are not made here
        np.savez(folder / "inputs.npz", **make_inputs(case, "host"))
    return str(artifact.relative_to(build))


def gpu_stage(build: Path, rows: list[dict[str, Any]]) -> str:
    """Run every built example on the GPU; returns the line saying where it ran."""
    from oxide.runtime import gpu_status, load

    ok, why = gpu_status()
    if not ok:
        for row in rows:
            if "artifact" in row:
                row["gpu"] = f"not run: {why}"
        return f"not run ({why})"
    cases = {c.example: c for c in all_cases()}
    for row in rows:
        if "artifact" not in row:
            row["gpu"] = "not run: not built" if not row["gpu"].startswith("out of scope") else row["gpu"]
            continue
        case = cases[row["example"]]
        stored = build / case.example / "inputs.npz"
        inputs = dict(np.load(stored)) if stored.is_file() else make_inputs(case, "host")
        try:
            module = load(build / row["artifact"], target="gpu")
        except Exception as exc:
            row["gpu"] = "error: " + first_error(exc)
            continue
        start = time.perf_counter()
        row["gpu"] = run_case(case, module, "host", inputs)
        row["gpu_seconds"] = round(time.perf_counter() - start, 1)
        print(f"{case.example:24s} gpu: {row['gpu'][:100]}", flush=True)
    return f"ran on the GPU ({why})"


# --- the report ----------------------------------------------------------------------------------------------


def md(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def sizes_cell(case: Case) -> str:
    host = ", ".join(f"{k}={v}" for k, v in case.host.items() if not isinstance(v, bool))
    if case.emulator is None:
        return host
    small = ", ".join(f"{k}={v}" for k, v in case.emulator.items() if case.host.get(k) != v)
    return f"{host}; emulator: {small} ({case.smaller_why})"


def summary(rows: list[dict[str, Any]]) -> str:
    cases = {c.example: c for c in all_cases()}
    scoped = [r for r in rows if cases[r["example"]].refusal is None]
    refused = [r for r in rows if cases[r["example"]].refusal is not None]
    return (f"In scope: {len(scoped)} examples; compiled: {sum(r['compiled'] == 'compiled' for r in scoped)}; "
            f"emulator-correct: {sum(r['emulator'].startswith(PASS) for r in scoped)}; "
            f"GPU-correct: {sum(r['gpu'].startswith(PASS) for r in scoped)}. "
            f"Blackwell-only examples refused as expected: "
            f"{sum(r['compiled'].startswith('refused as expected') for r in refused)} of {len(refused)}.\n")


def write_report(rows: list[dict[str, Any]], snapshot: str, gpu_line: str, out: Path) -> None:
    cases = {c.example: c for c in all_cases()}
    lines = ["# cutile-rs examples through oxide\n",
             f"Examples: {snapshot}. GPU: {gpu_line}. Produced by `python benchmarks/yardstick/cutile_run.py` "
             "(see README.md, \"cutile-rs examples\").\n",
             "Per example: **compiled** (the kernels with the host code's generics, oxide's compiler, ptxas), "
             "**emulator** (the host program restated in cutile_cases*.py, run on oxide's emulator against numpy), "
             "**GPU** (the same at the host code's sizes on the GPU, from a `--build` directory). A failure shows "
             "its first error. Inputs are seeded random data, never zeros.\n",
             summary(rows),
             "| example | kernels (generics) | chip | sizes | compiled | emulator | GPU | host features | notes |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        c = cases[r["example"]]
        notes = "; ".join(t for t in (c.note, "; ".join(f"{k}: {v.why}" for k, v in c.tolerance.items() if v.why))
                          if t)
        lines.append(f"| {c.example} | {md(c.kernels)} | {c.chip} | {md(sizes_cell(c))} | {md(r['compiled'])} | "
                     f"{md(r['emulator'])} | {md(r['gpu'])} | {md(c.host_features or '-')} | {md(notes)} |")
    out.write_text("\n".join(lines) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("examples", type=Path, nargs="?", help="the cutile-examples/examples folder of a snapshot")
    ap.add_argument("--only", nargs="*", default=[], help="only these examples")
    ap.add_argument("--build", type=Path, help="also write artifacts, inputs and results here for --gpu")
    ap.add_argument("--gpu", type=Path, help="run a --build directory on this machine's GPU (runtime only)")
    ap.add_argument("--snapshot", default="a cutile-rs snapshot", help="which snapshot, for the report")
    ap.add_argument("--out", type=Path, default=REPORT)
    ap.add_argument("--debug", action="store_true", help="print the traceback of each failure")
    args = ap.parse_args()
    if args.gpu is not None:
        manifest = json.loads((args.gpu / "manifest.json").read_text())
        rows = manifest["rows"]
        gpu_line = gpu_stage(args.gpu, rows)
        write_report(rows, manifest["snapshot"], gpu_line, args.out)
        print(f"wrote {args.out}")
        return 0
    if args.examples is None:
        ap.error("give the examples folder (or --gpu DIR)")
    rows = []
    for case in all_cases():
        if args.only and case.example not in args.only:
            continue
        rows.append(examine(case, args.examples, args.build))
        r = rows[-1]
        print(f"{case.example:24s} compiled: {r['compiled'][:70]:70s} emulator: {r['emulator'][:60]}", flush=True)
    if args.build is not None:
        (args.build / "manifest.json").write_text(json.dumps({"snapshot": args.snapshot, "rows": rows}, indent=1))
    write_report(rows, args.snapshot, "not run (this run compiles and emulates; `--gpu DIR` runs the GPU column)",
                 args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
