"""Types' and attributes' printed text and parsed parameters, remembered while a compile's passes run.

oxide's types and attributes are IRDL definitions, whose parameters the Python bindings expose only through
their printed text: reading a pointer's element type prints the type and parses its parameters back. The
lowerings and verifiers ask this for the same few types thousands of times per compile. Inside
`types_remembered()` the answers are kept (per thread); at its end they are dropped, because a type holds a
reference to its context and a longer-lived table would keep every compile's context alive. Outside it every
call prints and parses as before.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from mlir import ir

_LOCAL = threading.local()


@contextmanager
def types_remembered() -> Iterator[None]:
    """Remember types' text and parameters until the outermost such block ends."""
    if getattr(_LOCAL, "table", None) is not None:
        yield
        return
    _LOCAL.table = {}
    try:
        yield
    finally:
        _LOCAL.table = None


def _table() -> dict[Any, Any] | None:
    return getattr(_LOCAL, "table", None)


def spelling(value: Any) -> str:
    """`str(value)` for an ir.Type or ir.Attribute (or a spelling given as text)."""
    table = _table()
    if table is None or isinstance(value, str):
        return str(value)
    key = ("text", value)  # uniqued: equal types are one object of one context, so the text cannot differ
    text = table.get(key)
    if text is None:
        text = table[key] = str(value)
    return text


def remembered(kind: str, value: Any, compute: Callable[[], Any]) -> Any:
    """`compute()`, the fact named `kind` of the type or attribute `value`."""
    table = _table()
    if table is None or isinstance(value, str):
        return compute()
    key = (kind, value)
    if key not in table:
        table[key] = compute()
    return table[key]


def parsed(kind: str, text: str, parse: Callable[[str], Any]) -> Any:
    """`parse(text)` in the current context (ir.Type.parse for kind "type", ir.Attribute.parse for
    "attribute")."""
    table = _table()
    if table is None:
        return parse(text)
    try:
        context = ir.Context.current
    except ValueError:  # no context: the parser says so
        return parse(text)
    key = (kind, context, text)
    found = table.get(key)
    if found is None:
        found = table[key] = parse(text)
    return found
