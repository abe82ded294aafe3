"""Located diagnostics: the one way oxide reports a problem with the user's input.

Every error a user can cause (bad IR, a failed verifier, a bad pipeline, a kernel the frontend rejects, a
pass or lowering that refuses its input) becomes a Diagnostic with a file:line:col, rendered MLIR-style on
the first line so tools and editors can jump to it, followed by the source line and a caret, the notes and
a `help:` line, rustc-style. Errors are raised as OxideError; warnings (`warn`) are Diagnostics too. MLIR's
own diagnostics (parser, IRDL and upstream verifiers, pass failures) are converted into the same form. This
module imports no MLIR at load time so that oxide.ir.compat can report a missing wheel through it. (The
runtime imports nothing of the compiler, this module included: its exceptions are oxide.runtime.errors.)
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping


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


def source_loc(location: Any, rename: Mapping[str, str] | None = None) -> SourceLoc | None:
    """The file position behind an mlir.ir.Location (through name, call-site and fused locations).

    `rename` maps buffer names to file names, for text MLIR parsed without a name (it calls it "-").
    """
    seen = 0
    while location is not None and seen < 64:
        seen += 1
        if location.is_a_file():
            name = (rename or {}).get(location.filename, location.filename)
            return SourceLoc(name, location.start_line, location.start_col)
        if location.is_a_name():
            location = location.child_loc
        elif location.is_a_callsite():
            location = location.callee
        elif location.is_a_fused():
            inner = [loc for loc in location.locations if source_loc(loc, rename) is not None]
            location = inner[0] if inner else None
        else:
            return None
    return None


def _severity_name(severity: Any) -> str:
    name = getattr(severity, "name", str(severity)).lower()
    return name.split(".")[-1]


def from_mlir_diagnostic(diag: Any, rename: Mapping[str, str] | None = None) -> Diagnostic:
    """Convert an mlir.ir.Diagnostic or DiagnosticInfo into a Diagnostic."""
    return Diagnostic(
        severity=_severity_name(diag.severity),
        message=str(diag.message),
        loc=source_loc(diag.location, rename),
        notes=[from_mlir_diagnostic(note, rename) for note in diag.notes],
    )


def from_mlir_error(error: Any, rename: Mapping[str, str] | None = None) -> list[Diagnostic]:
    """The diagnostics an mlir MLIRError carries, or its message when it carries none."""
    diags = [from_mlir_diagnostic(d, rename) for d in getattr(error, "error_diagnostics", [])]
    return diags or [Diagnostic("error", str(getattr(error, "message", error)))]


# Where `warn` puts warnings: Python passes cannot emit MLIR warnings through the bindings (a Location
# offers only emit_error), so they report through this sink, which the drivers collect and render.
_WARNING_SINK: contextvars.ContextVar[tuple[list[Diagnostic], Mapping[str, str] | None] | None] = \
    contextvars.ContextVar("oxide_warning_sink", default=None)


def warn(location: Any, message: str) -> None:
    """Report a warning at an mlir.ir.Location to the active collector (`captured_diagnostics` or
    `collected_warnings`); with none active, print it to stderr so that it is never lost."""
    sink = _WARNING_SINK.get()
    rename = sink[1] if sink else None
    diagnostic = Diagnostic("warning", message, source_loc(location, rename))
    if sink is None:
        print(diagnostic.render(), file=sys.stderr)
    else:
        sink[0].append(diagnostic)


@contextlib.contextmanager
def collected_warnings(rename: Mapping[str, str] | None = None) -> Iterator[list[Diagnostic]]:
    """Collect the warnings oxide's passes report while the block runs."""
    collected: list[Diagnostic] = []
    token = _WARNING_SINK.set((collected, rename))
    try:
        yield collected
    finally:
        _WARNING_SINK.reset(token)


@contextlib.contextmanager
def captured_diagnostics(context: Any, rename: Mapping[str, str] | None = None) -> Iterator[list[Diagnostic]]:
    """Collect every diagnostic MLIR emits in `context` (instead of printing it) while the block runs, and
    the warnings oxide's passes report (`warn`), in the order they come."""
    collected: list[Diagnostic] = []

    def handler(diag: Any) -> bool:
        collected.append(from_mlir_diagnostic(diag, rename))
        return True

    handle = context.attach_diagnostic_handler(handler)
    token = _WARNING_SINK.set((collected, rename))
    try:
        yield collected
    finally:
        _WARNING_SINK.reset(token)
        handle.detach()
