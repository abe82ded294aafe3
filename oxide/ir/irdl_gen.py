"""Render declared dialects as IRDL text, the form MLIR loads at run time and `mlir-opt --irdl-file=` reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from oxide.ir.declare import Dialect


class IrdlScope:
    """The constraint values of one IRDL definition (type, attribute or operation).

    In IRDL, every use of one constraint value must match the *same* type, so each use of a constraint
    gets fresh values, except a TypeVar, which maps to one value: that is how IRDL says "these fields
    have the same type".
    """

    def __init__(self, indent: str):
        self.indent = indent
        self.lines: list[str] = []
        self._shared: dict[int, str] = {}

    def value(self, expr: str) -> str:
        """Emit `expr` as a new constraint value; return its SSA name."""
        name = f"%{len(self.lines)}"
        self.lines.append(f"{self.indent}{name} = {expr}")
        return name

    def shared(self, key: Any, make: Callable[[], str]) -> str:
        """One constraint value per `key` object (a TypeVar), made on first use."""
        if id(key) not in self._shared:
            self._shared[id(key)] = make()
        return self._shared[id(key)]


def _field_list(fields: list[Any], scope: IrdlScope) -> str:
    parts = []
    for f in fields:
        variadicity = {"single": "", "variadic": "variadic ", "optional": "optional "}[f.kind]
        parts.append(f"{f.name}: {variadicity}{f.constraint.irdl(scope)}")
    return ", ".join(parts)


def _doc_comment(obj: Any, indent: str) -> list[str]:
    doc = (obj.__doc__ or "").strip().splitlines()
    return [f"{indent}// {doc[0]}"] if doc else []


def dialect_to_irdl(dialect: "Dialect") -> str:
    """The IRDL text of one dialect."""
    out = [f"irdl.dialect @{dialect.name} {{"]
    for kind, defs in (("type", dialect.types), ("attribute", dialect.attributes)):
        for d in defs:
            scope = IrdlScope("    ")
            params = _field_list(list(d.parameters), scope)
            out += _doc_comment(d, "  ")
            out.append(f"  irdl.{kind} @{d.mnemonic} {{")
            out += scope.lines
            if d.parameters:
                out.append(f"    irdl.parameters({params})")
            out.append("  }")
    for op in dialect.ops:
        scope = IrdlScope("    ")
        body = []
        if op.operand_fields:
            body.append(f"    irdl.operands({_field_list(op.operand_fields, scope)})")
        if op.result_fields:
            body.append(f"    irdl.results({_field_list(op.result_fields, scope)})")
        if op.attribute_fields:
            attrs = ", ".join(f'"{a.name}" = {a.constraint.irdl(scope)}' for a in op.attribute_fields)
            body.append(f"    irdl.attributes {{{attrs}}}")
        out += _doc_comment(op, "  ")
        out.append(f"  irdl.operation @{op.mnemonic} {{")
        out += scope.lines + body
        out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"
