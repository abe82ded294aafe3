"""`a..b` as a value: a `core::ops::Range<T>`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions.inference import unify
from oxide.frontends.simt.expressions.operators import operands
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@emits(ast.Range)
def e_Range(em: FunctionEmitter, e: ast.Range, expected: T.Ty | None) -> Val:
    """`a..b` as a value: a `core::ops::Range<T>` (its `start` and `end` fields)."""
    if e.start is None or e.end is None or e.inclusive:
        raise err(e.loc, "a range value other than `a..b` (e.g. `a..`, `a..=b`) is not supported in device code; "
                         "use it in a `for` loop or a subslice")
    hint = expected.fields[0][1] if isinstance(expected, T.Struct) and expected.name.startswith("Range<") else None
    start, end = operands(em, e.start, e.end, hint)
    ty = unify(em, start, end, e.loc, "a range")
    return Val(range_type(ty), [em.coerce(start, ty, e.start.loc), em.coerce(end, ty, e.end.loc)])


def range_type(elem: T.Ty) -> T.Struct:
    """`core::ops::Range<elem>`."""
    return T.Struct(f"Range<{elem.rust()}>", (("start", elem), ("end", elem)))
