"""Assemble emitted PTX with ptxas for the architecture its `.target` line names."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

PTXAS_TIMEOUT_S = 60
_TARGET = re.compile(r"^\s*\.target\s+(sm_\w+)", re.MULTILINE)
_VERSION = re.compile(r"^\s*\.version\b", re.MULTILINE)


def ptxas_path() -> str | None:
    """The ptxas on PATH (or $CUDA_HOME/bin), if any."""
    home = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
    return shutil.which("ptxas") or shutil.which("ptxas", path=os.path.join(home, "bin"))


def modules(ptx: str) -> list[str]:
    """The PTX modules in `ptx` (oxide prints one per kernel module, each starting at `.version`)."""
    starts = [m.start() for m in _VERSION.finditer(ptx)]
    return [ptx[a:b] for a, b in zip(starts, starts[1:] + [len(ptx)])]


def assemble(ptx: str) -> str | None:
    """None if every module assembles; else ptxas's first error line (with the module's .target)."""
    ptxas = ptxas_path()
    if ptxas is None:
        raise FileNotFoundError("ptxas")
    for module in modules(ptx):
        target = _TARGET.search(module)
        arch = target.group(1) if target else "sm_90"
        with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False, encoding="utf-8") as f:
            f.write(module)
        try:
            done = subprocess.run([ptxas, f"-arch={arch}", "-o", os.devnull, f.name], capture_output=True,
                                  timeout=PTXAS_TIMEOUT_S, errors="replace", text=True)
        finally:
            os.unlink(f.name)
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if "error" in line or "fatal" in line]
            first = lines[0] if lines else done.stderr.strip() or f"exit status {done.returncode}"
            return first.split("; ", 1)[-1] if first.startswith("ptxas ") and "; " in first else first
    return None
