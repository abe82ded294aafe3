"""`--verify-diagnostics`: check emitted diagnostics against `// expected-error {{...}}` comments.

The comment syntax is MLIR's: `expected-(error|warning|note|remark)` optionally followed by `@+N`, `@-N`,
`@above` or `@below` (the line the diagnostic is expected on, relative to the comment's line), then the
expected text in `{{...}}`, which must occur in the diagnostic's message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oxide.diagnostics import Diagnostic, SourceLoc

_EXPECTED = re.compile(r"expected-(error|warning|note|remark)\s*(?:@(above|below|[+-]\d+))?\s*\{\{(.*?)\}\}")


@dataclass
class Expectation:
    """One expected diagnostic, where it was written, and whether a diagnostic matched it."""

    severity: str
    line: int
    text: str
    written_at: SourceLoc
    matched: bool = False


def expectations(text: str, source_name: str) -> list[Expectation]:
    """Every expected-* comment in `text`."""
    found = []
    for index, line in enumerate(text.splitlines(), start=1):
        for match in _EXPECTED.finditer(line):
            severity, offset, expected = match.groups()
            target = index
            if offset == "above":
                target = index - 1
            elif offset == "below":
                target = index + 1
            elif offset:
                target = index + int(offset)
            found.append(Expectation(severity, target, expected, SourceLoc(source_name, index, match.start() + 1)))
    return found


def check(diagnostics: list[Diagnostic], expected: list[Expectation]) -> list[Diagnostic]:
    """Match diagnostics (and their notes) to expectations; return errors for what did not match."""
    problems: list[Diagnostic] = []
    # MLIR attaches "see current operation" notes unless printOpOnDiagnostic is off, which mlir-opt turns
    # off under --verify-diagnostics and the Python bindings cannot: such notes are never expected.
    flat = [d for diag in diagnostics for d in (diag, *diag.notes) if not d.message.startswith("see current operation")]
    for diag in flat:
        hit = next(
            (e for e in expected
             if not e.matched and e.severity == diag.severity and diag.loc is not None
             and e.line == diag.loc.line and e.text in diag.message),
            None,
        )
        if hit:
            hit.matched = True
        else:
            problems.append(Diagnostic("error", f"unexpected {diag.severity}: {diag.message}", diag.loc))
    for e in expected:
        if not e.matched:
            problems.append(Diagnostic("error", f"expected {e.severity} \"{e.text}\" was not produced", e.written_at))
    return problems
