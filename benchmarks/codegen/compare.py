"""Compare the PTX oxide emits for vecadd, a shared-memory block sum and a tiled transpose with what nvcc
emits for the same CUDA C++ (run here: needs oxide installed, nvcc and ptxas on PATH).

    python benchmarks/codegen/compare.py [--chip sm_90] [--out report.md]

For each kernel it counts instruction classes in the entry body (bounds checks are the setp/trap
lines, 64-bit index math the mul.wide/add.s64 lines) and asks ptxas for register counts, then writes
a markdown table. It is a codegen audit, not a timing benchmark.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KERNELS = ("vecadd", "reduce", "transpose")
CLASSES = {
    "ld.global.nc": r"\bld\.global\.nc\b",
    "ld.global (coherent)": r"\bld\.global\.(?!nc)",
    "st.global": r"\bst\.global\b",
    "shared ld/st": r"\b(ld|st)\.shared\b",
    "setp (compares)": r"\bsetp\.",
    "trap (Rust panics)": r"\btrap;",
    "mul.wide (64-bit index)": r"\bmul\.wide\.",
    "add.s64": r"\badd\.s64\b",
    "bar.sync": r"\bbar\.sync\b",
}


def entry_body(ptx: str) -> str:
    """The text of the first .entry's body."""
    start = ptx.index(".entry")
    return ptx[ptx.index("{", start):]


def instructions(body: str) -> int:
    """Instruction lines of an entry body (not declarations, labels or comments)."""
    return sum(1 for line in body.splitlines()
               if line.strip().endswith(";") and not line.strip().startswith((".", "//")))


def registers(ptx_path: Path, chip: str) -> str:
    """ptxas -v's register count for the file."""
    result = subprocess.run(["ptxas", f"-arch={chip}", "-v", str(ptx_path), "-o", "/dev/null"],
                            capture_output=True, text=True, check=True)
    match = re.search(r"Used (\d+) registers", result.stderr)
    return match.group(1) if match else "?"


def compile_both(kernel: str, chip: str, tmp: Path) -> tuple[Path, Path]:
    oxide_ptx, nvcc_ptx = tmp / f"{kernel}.oxide.ptx", tmp / f"{kernel}.nvcc.ptx"
    subprocess.run(["oxide-opt", str(HERE / f"{kernel}.mlir"), "--emit=ptx", f"--chip={chip}", "-o", str(oxide_ptx)],
                   check=True)
    subprocess.run(["nvcc", f"-arch={chip}", "-O3", "-ptx", str(HERE / f"{kernel}.cu"), "-o", str(nvcc_ptx)], check=True)
    return oxide_ptx, nvcc_ptx


def report(chip: str) -> str:
    """The comparison as markdown."""
    lines = [f"# PTX: oxide vs nvcc ({chip})", ""]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for kernel in KERNELS:
            oxide_ptx, nvcc_ptx = compile_both(kernel, chip, tmp)
            bodies = [entry_body(p.read_text()) for p in (oxide_ptx, nvcc_ptx)]
            lines += [f"## {kernel}", "", "| | oxide | nvcc |", "|---|---:|---:|"]
            lines.append(f"| instructions | {instructions(bodies[0])} | {instructions(bodies[1])} |")
            for name, pattern in CLASSES.items():
                counts = [len(re.findall(pattern, body, re.M)) for body in bodies]
                lines.append(f"| {name} | {counts[0]} | {counts[1]} |")
            lines.append(f"| registers (ptxas -v) | {registers(oxide_ptx, chip)} | {registers(nvcc_ptx, chip)} |")
            lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    text = report(args.chip)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
