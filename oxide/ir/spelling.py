"""The printed text of types and attributes, and their parsed parameters, remembered per context.

oxide's types and attributes are IRDL definitions, whose parameters the Python bindings expose only through
their printed text: reading a pointer's element type prints the type (a few microseconds) and parses the
parameters back (more). Verifiers and lowerings ask this for the same few types thousands of times per
compile. Types and attributes are uniqued in their context, so what their text says never changes: the
answers are kept in a table that lives as long as the context (a weak reference to it), never longer.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable

from mlir import ir

_TABLES: "weakref.WeakKeyDictionary[Any, dict[Any, Any]]" = weakref.WeakKeyDictionary()


def _table(value: Any) -> dict[Any, Any] | None:
    """The table of `value`'s context; None for text (callers may pass a type's spelling itself)."""
    context = getattr(value, "context", None)
    if context is None:
        return None
    table = _TABLES.get(context)
    if table is None:
        table = _TABLES[context] = {}
    return table


def spelling(value: Any) -> str:
    """`str(value)` for an ir.Type or ir.Attribute, printed once per context."""
    table = _table(value)
    if table is None:
        return str(value)
    key = ("text", value)
    text = table.get(key)
    if text is None:
        text = table[key] = str(value)
    return text


def remembered(kind: str, value: Any, compute: Callable[[], Any]) -> Any:
    """`compute()`, a fact of the type or attribute `value` named `kind`, computed once per context."""
    table = _table(value)
    if table is None:
        return compute()
    key = (kind, value)
    if key not in table:
        table[key] = compute()
    return table[key]


def parsed(kind: str, text: str, parse: Callable[[str], Any]) -> Any:
    """`parse(text)` in the current context (ir.Type.parse for kind "type", ir.Attribute.parse for "attribute"),
    parsed once per context."""
    try:
        context = ir.Context.current
    except ValueError:  # no context: let the parser say so
        return parse(text)
    table = _TABLES.get(context)
    if table is None:
        table = _TABLES[context] = {}
    key = (kind, text)
    found = table.get(key)
    if found is None:
        found = table[key] = parse(text)
    return found
