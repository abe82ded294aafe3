"""`a[i]` and `a.f` read as values (through the place they name when there is one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_places import as_value, place_or_value
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@emits(ast.Index)
def e_Index(em: FunctionEmitter, e: ast.Index, expected: T.Ty | None) -> Val:
    return as_value(em, place_or_value(em, e))


@emits(ast.Field)
def e_Field(em: FunctionEmitter, e: ast.Field, expected: T.Ty | None) -> Val:
    return as_value(em, place_or_value(em, e))
