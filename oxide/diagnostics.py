"""Located diagnostics: the one record of a problem oxide reports, for every layer.

Every error a user can cause (bad IR, a failed verifier, a bad pipeline, a kernel the frontend rejects, a
pass or lowering that refuses its input, a kernel the emulator stops) becomes a Diagnostic with a
file:line:col, rendered MLIR-style on the first line so tools and editors can jump to it, followed by the
source line and a caret, the notes and a `help:` line, rustc-style. Errors are raised as OxideError;
warnings are Diagnostics too.

Pure Python with no imports of oxide: the compiler, the command line (before it knows whether the MLIR
wheels load) and the runtime (which imports nothing of the compiler) all report through it. Converting
MLIR's own diagnostics into this form is oxide.ir.diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

@dataclass(frozen=True)
class SourceLoc:
    """A point in a source file; line and column count from 1."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class Diagnostic:
    """One error, warning, note or remark, with its location when it has one, notes (diagnostics of their
    own, located where they point) and `help`: what to do about it."""

    severity: str
    message: str
    loc: SourceLoc | None = None
    notes: list["Diagnostic"] = field(default_factory=list)
    help: str | None = None

    def render(self, sources: Mapping[str, str] | None = None) -> str:
        """`file:line:col: error: message`, the source line with a caret, the notes, then `help: ...`."""
        head = f"{self.loc}: {self.severity}: {self.message}" if self.loc else f"{self.severity}: {self.message}"
        lines = [head]
        snippet = _snippet(self.loc, sources) if self.loc else None
        if snippet:
            lines.extend(snippet)
        for note in self.notes:
            lines.append(note.render(sources))
        if self.help:
            lines.append(f"help: {self.help}")
        return "\n".join(lines)


def _snippet(loc: SourceLoc, sources: Mapping[str, str] | None) -> list[str] | None:
    if not sources or loc.file not in sources:
        return None
    text_lines = sources[loc.file].splitlines()
    if not 1 <= loc.line <= len(text_lines):
        return None
    gutter = " " * len(str(loc.line))
    source_line = text_lines[loc.line - 1]
    caret_pad = "".join(c if c == "\t" else " " for c in source_line[: max(loc.col - 1, 0)])
    return [f"{gutter} |", f"{loc.line} | {source_line}", f"{gutter} | {caret_pad}^"]


class OxideError(Exception):
    """A problem with the user's input or environment, reported as located diagnostics, never a traceback."""

    def __init__(self, diagnostics: str | Diagnostic | list[Diagnostic], loc: SourceLoc | None = None):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic("error", diagnostics, loc)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))

    def render(self, sources: Mapping[str, str] | None = None) -> str:
        """All diagnostics, each with its source snippet when the source is known."""
        return "\n".join(d.render(sources) for d in self.diagnostics)


def exit_status(diagnostics: list[Diagnostic]) -> int:
    """The exit status of a run that reported `diagnostics`: 2 when any is an internal error (a bug in oxide,
    even beside errors in the input), else 1 when any is an error, else 0."""
    errors = [d for d in diagnostics if d.severity == "error"]
    if any(d.message.startswith("internal error") for d in errors):
        return 2
    return 1 if errors else 0


_LOCATION = re.compile(r"(?P<file>.+):(?P<line>\d+):(?P<col>\d+)")


def parse_loc(text: str) -> SourceLoc | None:
    """The SourceLoc written as `file:line:col` (how artifacts record kernel source positions), or None."""
    match = _LOCATION.fullmatch(text)
    return SourceLoc(match["file"], int(match["line"]), int(match["col"])) if match else None
