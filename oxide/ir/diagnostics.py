"""MLIR's diagnostics in oxide's form (oxide.diagnostics): locations, diagnostics and errors the bindings
report are converted into Diagnostics, and warnings from Python passes are collected beside them. The
bindings are only duck-typed here, so this module imports no MLIR at load time either.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from typing import Any, Iterator, Mapping

from oxide.diagnostics import Diagnostic, SourceLoc


def source_loc(location: Any, rename: Mapping[str, str] | None = None) -> SourceLoc | None:
    """The file position behind an mlir.ir.Location (through name, call-site and fused locations).

    `rename` maps buffer names to file names, for text MLIR parsed without a name (it calls it "-").
    """
    seen = 0
    while location is not None and seen < 64:
        seen += 1
        if location.is_a_file():
            # An explicit location with no file name (`loc("":83)`) is in the input itself, like the unnamed
            # buffer MLIR calls "-".
            filename = location.filename or "-"
            name = (rename or {}).get(filename, filename)
            # The bindings read line and column as signed 32-bit values; a location written as 4294967295
            # would read -1.
            return SourceLoc(name, location.start_line & 0xFFFFFFFF, location.start_col & 0xFFFFFFFF)
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


@contextlib.contextmanager
def warnings_reported(context: Any = None) -> Iterator[list[Diagnostic | Any]]:
    """While the block runs, collect what would be reported: oxide's warnings (`warn`) and every diagnostic
    MLIR emits in `context`, which still reaches the context's other handlers. The isolation child uses it to
    tell a clean run from one whose reports the caller must see (oxide.ir.isolation.computed)."""
    reported: list[Diagnostic | Any] = []
    outer = _WARNING_SINK.get()
    token = _WARNING_SINK.set((reported, outer[1] if outer else None))

    def handler(diag: Any) -> bool:
        reported.append(diag)
        return False  # not handled: it goes on to the handlers already attached

    handle = context.attach_diagnostic_handler(handler) if context is not None else None
    try:
        yield reported
    finally:
        _WARNING_SINK.reset(token)
        if handle is not None:
            handle.detach()
