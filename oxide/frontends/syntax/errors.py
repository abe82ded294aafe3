"""The one way a frontend reports a mistake in the user's program: an OxideError at a source location."""

from __future__ import annotations

from oxide.ir.diagnostics import OxideError, SourceLoc


def err(loc: SourceLoc | None, message: str) -> OxideError:
    """A located error in the user's program (raised by the caller)."""
    return OxideError(message, loc)
