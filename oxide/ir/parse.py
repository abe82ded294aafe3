"""Parse MLIR text from a named source into a builtin.module, with located errors."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mlir import ir

from oxide.diagnostics import OxideError
from oxide.ir.diagnostics import from_mlir_error
from oxide.ir.isolation import contained
from oxide.ir.text_checks import non_utf8_string, text_problems

# MLIR's name for a buffer parsed without one (ir.Module.parse).
UNNAMED_BUFFER = "-"
_TOP_LEVEL_COUNT = re.compile(r"single top-level operation, found: (\d+)")


@dataclass
class ParsedSource:
    """A parsed builtin.module (an OpView), the object that owns it, and the source it came from."""

    module: Any
    owner: Any
    name: str
    text: str

    @property
    def rename(self) -> dict[str, str]:
        """Buffer names to report as this source's name (see diagnostics.source_loc)."""
        return {UNNAMED_BUFFER: self.name}


def parse_source(text: str, name: str, context: ir.Context) -> ParsedSource:
    """Parse `text` (named `name` in locations); a lone non-module op, or several top-level ops, get a module."""
    # MLIR's parser asserts on some malformed input (a dense array of `index`, an op named `simt.`): the
    # text checks report what they can locate exactly; the containment catches the rest.
    problems = text_problems(text, name)
    if problems:
        raise OxideError(problems)
    return contained(f"parsing {name}", lambda: _parse(text, name, context), context)


def _parse(text: str, name: str, context: ir.Context) -> ParsedSource:
    try:
        top = ir.Operation.parse(text, source_name=name, context=context)
    except RuntimeError as exc:
        # The bindings could not turn MLIR's diagnostic into a Python string: it quotes bytes that are not
        # UTF-8. Locate the string instead of reporting nothing.
        located = non_utf8_string(text, name) if "conversion error" in str(exc) else None
        if located is None:
            raise
        raise OxideError(located) from None
    except ir.MLIRError as exc:
        count = _TOP_LEVEL_COUNT.search(str(exc))
        if not count or count.group(1) == "1":
            # An explicit location with an empty file name (`loc("":7:3)`) reads as MLIR's unnamed buffer "-":
            # it is in this input.
            raise OxideError(from_mlir_error(exc, {UNNAMED_BUFFER: name})) from None
        # Zero or several top-level ops: only ir.Module.parse wraps them in an implicit module, and it
        # names the buffer "-"; ParsedSource.rename maps that back to `name` in diagnostics.
        try:
            owner = ir.Module.parse(text, context)
        except ir.MLIRError as exc2:
            raise OxideError(from_mlir_error(exc2, {UNNAMED_BUFFER: name})) from None
        return ParsedSource(owner.operation.opview, owner, name, text)
    if top.operation.name == "builtin.module":
        return ParsedSource(top, top, name, text)
    owner = ir.Module.create(loc=top.operation.location)
    owner.body.append(top.operation)
    return ParsedSource(owner.operation.opview, owner, name, text)
