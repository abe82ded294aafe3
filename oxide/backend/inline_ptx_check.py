"""Inline PTX that ptxas refuses is reported at the `asm!`/`simt.inline_ptx` that wrote it.

oxide's verifiers check what they can know about an inline PTX template (ASCII only, every `$i` an operand,
the constraints), but the template is PTX text that only an assembler can judge: `add.f32 %r1, $0 %` is
accepted by every check and refused by ptxas. So when a module holds inline PTX and ptxas is installed,
the PTX is assembled once after it is made; an error on a line inside an inline-asm block becomes a
located error at the inline PTX op whose template produced that line. An error outside every inline-asm
block is PTX that oxide itself generated: an internal error. Without ptxas the check is skipped (the
driver's JIT then reports the problem at load time).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from mlir import ir

from oxide.dialects import simt
from oxide.diagnostics import Diagnostic, OxideError, SourceLoc
from oxide.ir.diagnostics import source_loc
from oxide.ir.rules import is_op
from oxide.ir.walk import walk

_BEGIN, _END = "// begin inline asm", "// end inline asm"
_PTXAS_LINE = re.compile(r"line (\d+); (?:error|fatal)\s*:\s*(.*)")
_PLACEHOLDER = re.compile(r"\\\$\d+")
# ptxas assembles a kernel in tens of milliseconds; a template that makes it spin is not worth waiting for.
_PTXAS_SECONDS = 60


@dataclass(frozen=True)
class InlinePtxSite:
    """One inline PTX op before lowering: where it was written and its template."""

    loc: SourceLoc | None
    template: str

    def matches(self, ptx_text: str) -> bool:
        """Whether `ptx_text` (an inline-asm block of the output) can be this template with operands filled."""
        pattern = _PLACEHOLDER.sub(r"\\S+?", re.escape(" ".join(self.template.split())))
        return re.fullmatch(pattern, " ".join(ptx_text.split())) is not None


def inline_ptx_sites(module: Any, rename: Mapping[str, str] | None) -> list[InlinePtxSite]:
    """Every simt.inline_ptx op of `module` (a builtin.module, not yet lowered), in order."""
    sites: list[InlinePtxSite] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if is_op(op, simt.InlinePtxOp):
            template = ir.StringAttr(op.attributes["asm"]).value
            sites.append(InlinePtxSite(source_loc(op.location, rename), template))
        return ir.WalkResult.ADVANCE

    walk(module.operation, visit)
    return sites


def find_cuda_tool(name: str) -> str | None:
    """A CUDA toolkit program on PATH, else under $CUDA_HOME, $CUDA_PATH or /usr/local/cuda; None if absent."""
    found = shutil.which(name)
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if not found and root and (Path(root) / "bin" / name).is_file():
            found = str(Path(root) / "bin" / name)
    return found


def find_ptxas() -> str | None:
    """The ptxas that checks inline PTX (see find_cuda_tool)."""
    return find_cuda_tool("ptxas")


def check_inline_ptx(sites: list[InlinePtxSite], ptx: str, chip: str) -> None:
    """Assemble `ptx` for `chip` when it holds inline PTX; raise a located OxideError for a refused template."""
    ptxas = find_ptxas() if sites else None
    if ptxas is None:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernel.ptx"
        path.write_text(ptx)
        try:
            run = subprocess.run([ptxas, f"-arch={chip}", str(path), "-o", os.devnull], capture_output=True,
                                 text=True, timeout=_PTXAS_SECONDS)
        except (OSError, subprocess.TimeoutExpired):
            return  # an assembler that cannot run says nothing about the template
    if run.returncode == 0:
        return
    raise OxideError(_diagnose(sites, ptx.splitlines(), run.stderr))


def _diagnose(sites: list[InlinePtxSite], lines: list[str], stderr: str) -> list[Diagnostic]:
    found = _PTXAS_LINE.search(stderr)
    message = found.group(2).strip() if found else stderr.strip().splitlines()[-1] if stderr.strip() else "failed"
    block = _inline_block(lines, int(found.group(1)) - 1, stderr) if found else None
    if block is None:
        return [Diagnostic("error", f"internal error: ptxas refused the PTX oxide generated: {stderr.strip()}")]
    site = next((s for s in sites if s.matches(block)), sites[0])
    return [Diagnostic("error", f"ptxas refuses this inline PTX: {message} (in `{' '.join(block.split())}`); "
                                "check the instruction, its operands, the `$i` placeholders and the `;` that ends "
                                "each instruction", site.loc)]


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(begin, end) line indices of every inline-asm block of the PTX (its marker comments)."""
    out, begin = [], None
    for i, line in enumerate(lines):
        if line.strip() == _BEGIN:
            begin = i
        elif line.strip() == _END and begin is not None:
            out.append((begin, i))
            begin = None
    return out


def _inline_block(lines: list[str], index: int, stderr: str) -> str | None:
    """The text of the inline-asm block ptxas's error on line `index` of the PTX is about: the block around
    that line, else a block whose text the error quotes, else an unterminated block just before it (a template
    that does not end its instruction with `;` runs into the next line); None when no block is to blame."""
    blocks = [(b, e, "\n".join(lines[b + 1:e])) for b, e in _blocks(lines)]
    for begin, end, text in blocks:
        if begin < index < end:
            return text
    for _, _, text in blocks:
        if text.strip() and text.strip()[:40] in stderr:
            return text
    before = [(end, text) for _, end, text in blocks if end < index]
    if before and not any(line.strip() for line in lines[before[-1][0] + 1:index]) \
            and not before[-1][1].strip().endswith((";", "}")):
        return before[-1][1]
    return None
