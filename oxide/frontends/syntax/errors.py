"""The one way a frontend reports a mistake in the user's program: an OxideError at a source location."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from oxide.diagnostics import OxideError, SourceLoc

if TYPE_CHECKING:
    from oxide.frontends.syntax.parser import Source


def err(loc: SourceLoc | None, message: str) -> OxideError:
    """A located error in the user's program (raised by the caller)."""
    return OxideError(message, loc)


def unsupported(source: "Source", node: Any, what: str, hint: str = "") -> OxideError:
    """`error: <what> is not supported in device code`, located at `node`."""
    message = f"{what} is not supported in device code" + (f"; {hint}" if hint else "")
    return OxideError(message, source.loc(node))
