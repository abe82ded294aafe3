"""cuda-oxide's `ptx_asm!`: PTX instructions written in the kernel, with GCC-style operands.

    ptx_asm!("add.u32 %0, %1, %1;", out("=r") doubled, in("r") x, inout("+l") acc, in("C") MODE,
             clobber("memory"), options(register_only));

`%N` names the N-th operand in the order written, `%%` is a literal `%`. `out("=c") place` writes a `let`
local (declared without a value is fine), `inout("+c") place` reads and writes one, `in("c") expr` reads a
value; `c` is a PTX register class (`r` 32-bit, `l` 64-bit, `h` 16-bit, `f` f32, `d` f64). `in("C") NAME`
splices a constant byte string (`const MODE: &[u8; 6] = b".wide\\0";`) into the text. The block is one
`simt.inline_ptx` op, which is never moved or removed; `clobber("memory")` also keeps memory accesses on
their side of it. It is unsafe, as in cuda-oxide.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.dialects.simt.inline_ptx import MAX_OPERANDS, build_inline_ptx
from oxide.frontends.simt.values import Cell, Val, load_cell, store_cell
from oxide.frontends.simt.calls.context import Emitter

_CLASSES = {"r": (32,), "l": (64,), "h": (16,), "f": ("f32",), "d": ("f64",)}


@dataclass
class _Operand:
    kind: str        # "out", "inout", "in", "const"
    klass: str       # the register class letter
    expr: ast.Expr
    loc: Any


def _string(e: ast.Expr, what: str) -> str:
    if isinstance(e, ast.Lit) and e.kind == "str":
        return e.value
    raise err(e.loc, f"{what} must be a string literal")


def _fits(ty: T.Ty, klass: str) -> bool:
    if klass in ("f", "d"):
        return isinstance(ty, T.Float) and ty.bits == (32 if klass == "f" else 64)
    return isinstance(ty, (T.Int, T.Bool)) and not isinstance(ty, T.Bool) and ty.bits == _CLASSES[klass][0]


def _const_text(em: Emitter, e: ast.Expr) -> str:
    """The text of an `in("C")` operand: a `const` byte string (a trailing NUL ends it)."""
    if isinstance(e, ast.PathExpr) and len(e.segments) == 1:
        const = em.crate.const(e.segments[0])
        if const is not None:
            e = const.value
    value = e.operand if isinstance(e, ast.Unary) and e.op == "&" else e
    if isinstance(value, ast.Lit) and value.kind == "str":
        return value.value.split("\0")[0]
    raise err(e.loc, "an `in(\"C\")` operand is a constant string: a `const` byte string or a string literal")


def _parse(em: Emitter, e: ast.MacroCall) -> tuple[str, list[_Operand], list[str]]:
    if not e.args:
        raise err(e.loc, "`ptx_asm!` needs the PTX text as its first argument")
    template = _string(e.args[0], "the PTX text of `ptx_asm!`")
    operands: list[_Operand] = []
    clobbers: list[str] = []
    for a in e.args[1:]:
        if not (isinstance(a, ast.Call) and isinstance(a.func, ast.PathExpr) and len(a.func.segments) == 1):
            raise err(a.loc, "a `ptx_asm!` operand is `out(\"=r\") x`, `in(\"r\") e`, `inout(\"+r\") x`, "
                             "`clobber(\"memory\")` or `options(...)`")
        kind = {"i_": "in"}.get(a.func.segments[0], a.func.segments[0])
        if kind == "options":
            continue  # register_only & co are promises about the text; the op keeps its side effects anyway
        if kind == "clobber":
            clobbers.extend(f"~{{{_string(c, 'a clobber')}}}" for c in a.args)
            continue
        if kind not in ("out", "in", "inout") or len(a.args) != 2:
            raise err(a.loc, f"unknown `ptx_asm!` operand `{kind}`")
        constraint = _string(a.args[0], "an operand constraint")
        prefix = {"out": "=", "inout": "+", "in": ""}[kind]
        klass = constraint[len(prefix):] if constraint.startswith(prefix) else ""
        if kind == "in" and klass == "C":
            operands.append(_Operand("const", "C", a.args[1], a.loc))
            continue
        if klass not in _CLASSES:
            raise err(a.args[0].loc, f"`{kind}(\"{constraint}\")`: expected `{prefix}` and a register class "
                                     "(r, l, h, f, d)")
        operands.append(_Operand(kind, klass, a.args[1], a.loc))
    return template, operands, clobbers


def _place(em: Emitter, op: _Operand) -> Cell:
    target = op.expr
    cell = em.lookup(target.segments[0]) if isinstance(target, ast.PathExpr) and len(target.segments) == 1 else None
    if not isinstance(cell, Cell):
        raise err(target.loc, f"an `{op.kind}` operand of `ptx_asm!` is a `let` local (declared `let x: T;` or "
                              "`let mut x`)")
    return cell


def ptx_asm(em: Emitter, e: ast.MacroCall) -> Val:
    """Emit one `ptx_asm!` block."""
    em.require_unsafe(e.loc, "`ptx_asm!`")
    template, operands, clobbers = _parse(em, e)
    outputs = [op for op in operands if op.kind in ("out", "inout")]
    inputs = [op for op in operands if op.kind == "in"]
    tied = [op for op in operands if op.kind == "inout"]
    if len(outputs) > MAX_OPERANDS or len(inputs) + len(tied) > MAX_OPERANDS:
        raise err(e.loc, f"`ptx_asm!` takes at most {MAX_OPERANDS} outputs and {MAX_OPERANDS} inputs")
    # `%N` counts operands as written; LLVM numbers outputs first, then inputs.
    number: dict[int, str] = {}
    for i, op in enumerate(operands):
        if op.kind == "const":
            number[i] = _const_text(em, op.expr)
        elif op.kind == "in":
            number[i] = f"${len(outputs) + inputs.index(op)}"
        else:
            number[i] = f"${outputs.index(op)}"
    asm = _translate(template, number, e.args[0].loc)
    cells = [_place(em, op) for op in outputs]
    for op, cell in zip(outputs, cells):
        if not _fits(cell.ty, op.klass):
            raise err(op.expr.loc, f"a `{op.klass}` register does not hold a `{cell.ty}`")
    values = []
    for op in inputs:
        value = em.expr(op.expr, T.F32 if op.klass == "f" else T.F64 if op.klass == "d" else None)
        if not _fits(value.ty, op.klass):
            raise err(op.expr.loc, f"a `{op.klass}` register does not hold a `{value.ty}`")
        values.append(value.v)
    values += [load_cell(cells[outputs.index(op)]).v for op in tied]
    constraints = ([f"={op.klass}" for op in outputs] + [op.klass for op in inputs]
                   + [str(outputs.index(op)) for op in tied] + clobbers)
    results = build_inline_ptx(values, asm, ",".join(constraints), [c.ty.mlir() for c in cells])
    for cell, result in zip(cells, results):
        store_cell(cell, Val(cell.ty, result))
    return Val(T.UNIT, None)


def _translate(template: str, number: dict[int, str], loc: Any) -> str:
    """`%N` -> the LLVM operand (or the spliced constant), `%%` -> `%`, `$` -> `$$`."""
    out, i = [], 0
    while i < len(template):
        ch = template[i]
        if ch == "$":
            out.append("$$")
        elif ch == "%" and template[i + 1:i + 2] == "%":
            out.append("%")
            i += 1
        elif ch == "%" and template[i + 1:i + 2].isdigit():
            j = i + 1
            while j < len(template) and template[j].isdigit():
                j += 1
            index = int(template[i + 1:j])
            if index not in number:
                raise err(loc, f"`%{index}` in the PTX text names no operand (there are {len(number)})")
            out.append(number[index])
            i = j - 1
        elif ch == "%":
            raise err(loc, "a `%` in `ptx_asm!` text is `%N` (an operand) or `%%` (a literal %, as in `%%laneid`)")
        else:
            out.append(ch)
        i += 1
    return "".join(out)
