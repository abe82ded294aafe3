"""Binary and unary operators: arithmetic, comparisons, shifts, `&&`/`||`, negation, `!`, `*`, `&`,
`&mut`, and operators overloaded by a user's `impl Add for T` (inlined)."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.cell_pointers import no_address
from oxide.frontends.simt.inline import inline_call
from oxide.frontends.simt.emit_places import as_value, borrow, is_place_syntax, place_or_value
from oxide.frontends.simt.emit_support import i1
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions.indexing import local_cell, local_element_place
from oxide.frontends.simt.expressions.inference import is_plain_literal, unify
from oxide.frontends.simt.expressions.numeric import cast_int, is_signed
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Val, element_cell
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


_ARITH = {"+": ("addi", "addi", "addf"), "-": ("subi", "subi", "subf"), "*": ("muli", "muli", "mulf"),
          "/": ("divsi", "divui", "divf"), "%": ("remsi", "remui", "remf"), "&": ("andi", "andi", None),
          "|": ("ori", "ori", None), "^": ("xori", "xori", None), "<<": ("shli", "shli", None),
          ">>": ("shrsi", "shrui", None)}
_CMP_INT = {"==": ("eq", "eq"), "!=": ("ne", "ne"), "<": ("slt", "ult"), "<=": ("sle", "ule"),
            ">": ("sgt", "ugt"), ">=": ("sge", "uge")}
_CMP_FLOAT = {"==": "oeq", "!=": "une", "<": "olt", "<=": "ole", ">": "ogt", ">=": "oge"}


def operands(em: FunctionEmitter, lhs: ast.Expr, rhs: ast.Expr, expected: T.Ty | None) -> tuple[Val, Val]:
    """Both operands of a binary operator, an unsuffixed literal taking the other side's type."""
    if is_plain_literal(lhs) and not is_plain_literal(rhs):
        b = em.expr(rhs, expected)
        return em.expr(lhs, b.ty), b
    a = em.expr(lhs, expected)
    b = em.expr(rhs, a.ty if is_plain_literal(rhs) or isinstance(a.ty, (T.Int, T.Float)) else None)
    return a, b


_OPERATOR_TRAITS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "&": "bitand", "|": "bitor",
                    "^": "bitxor", "==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def _overloaded(em: FunctionEmitter, op: str, a: Val, b: Val, loc: Any) -> Val | None:
    """`a op b` on a user struct: its `impl Add for T { fn add(self, rhs) }` (or Sub, Mul, ...), inlined."""
    if not isinstance(a.ty, T.Struct) or op not in _OPERATOR_TRAITS:
        return None
    base = a.ty.name.split("<")[0]
    method = em.crate.method(base, _OPERATOR_TRAITS[op])
    if method is None:
        return None
    return inline_call(em, method, [b], loc, self_val=a)


def binary_values(em: FunctionEmitter, op: str, a: Val, b: Val, loc: Any) -> Val:
    overloaded = _overloaded(em, op, a, b, loc)
    if overloaded is not None:
        return overloaded
    if op in ("<<", ">>"):
        if not (isinstance(a.ty, T.Int) and isinstance(b.ty, T.Int)):
            raise err(loc, f"cannot shift `{a.ty}` by `{b.ty}`")
        amount = cast_int(b.v, b.ty, a.ty)
        # Rust without overflow checks shifts by the amount modulo the bit width (LLVM would give poison).
        amount = arith.andi(amount, arith.constant(a.ty.mlir(), ir.IntegerAttr.get(a.ty.mlir(), a.ty.bits - 1)))
        name = _ARITH[op][0 if a.ty.signed else 1]
        return Val(a.ty, getattr(arith, name)(a.v, amount))
    ty = unify(em, a, b, loc, f"`{op}`")
    if isinstance(ty, T.Char) and op not in _CMP_INT:
        raise err(loc, f"no operator `{op}` for `char` (Rust has no arithmetic on chars); convert with `as u32`")
    if op in _CMP_INT:
        if isinstance(ty, T.Float):
            pred = getattr(arith.CmpFPredicate, _CMP_FLOAT[op].upper())
            return Val(T.BOOL, arith.cmpf(pred, a.v, b.v))
        if isinstance(ty, (T.Int, T.Bool, T.Enum)):
            signed = is_signed(ty)
            pred = getattr(arith.CmpIPredicate, _CMP_INT[op][0 if signed else 1])
            return Val(T.BOOL, arith.cmpi(pred, a.v, b.v))
        if isinstance(ty, T.Ptr):  # raw pointers compare by address
            pred = getattr(arith.CmpIPredicate, _CMP_INT[op][1])
            return Val(T.BOOL, arith.cmpi(pred, simt.PtrToIntOp.build(a.v), simt.PtrToIntOp.build(b.v)))
        if isinstance(ty, T.CellPtr):
            raise no_address(loc, "a comparison")
        raise err(loc, f"cannot compare values of type `{ty}`")
    if op in ("&", "|", "^") and isinstance(ty, T.Bool):
        return Val(T.BOOL, getattr(arith, _ARITH[op][0])(a.v, b.v))
    if isinstance(ty, T.Float):
        name = _ARITH[op][2]
        if name is None:
            raise err(loc, f"no operator `{op}` for `{ty}`")
        # FMA contraction is on, as in cuda-oxide and nvcc (--fmad=true): a * b + c may become one fma.
        flags = ir.Attribute.parse("#arith.fastmath<contract>") if op in ("+", "-", "*") else None
        out = Val(ty, getattr(arith, name)(a.v, b.v, fastmath=flags) if flags else getattr(arith, name)(a.v, b.v))
    elif isinstance(ty, T.Int):
        if op in ("/", "%"):
            em.check_division(a, b, ty)
        out = Val(ty, getattr(arith, _ARITH[op][0 if ty.signed else 1])(a.v, b.v))
    else:
        raise err(loc, f"no operator `{op}` for `{ty}`")
    out.flex = getattr(a, "flex", None) or getattr(b, "flex", None)
    return out


@emits(ast.Binary)
def e_Binary(em: FunctionEmitter, e: ast.Binary, expected: T.Ty | None) -> Val:
    if e.op in ("&&", "||"):
        a = em.coerce(em.expr(e.lhs, T.BOOL), T.BOOL, e.lhs.loc)
        branch = scf.IfOp(a.v, [ir.IntegerType.get_signless(1)], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            if e.op == "&&":
                scf.YieldOp([em.coerce(em.expr(e.rhs, T.BOOL), T.BOOL, e.rhs.loc).v])
            else:
                scf.YieldOp([i1(True)])
        with ir.InsertionPoint(branch.else_block):
            if e.op == "&&":
                scf.YieldOp([i1(False)])
            else:
                scf.YieldOp([em.coerce(em.expr(e.rhs, T.BOOL), T.BOOL, e.rhs.loc).v])
        return Val(T.BOOL, branch.results[0])
    cmp = e.op in _CMP_INT
    a, b = operands(em, e.lhs, e.rhs, None if cmp else expected)
    return binary_values(em, e.op, a, b, e.loc)


@emits(ast.Unary)
def e_Unary(em: FunctionEmitter, e: ast.Unary, expected: T.Ty | None) -> Val:
    if e.op == "-":
        v = em.expr(e.operand, expected)
        if isinstance(v.ty, T.Struct) and em.crate.method(v.ty.name.split("<")[0], "neg") is not None:
            return inline_call(em, em.crate.method(v.ty.name.split("<")[0], "neg"), [], e.loc, self_val=v)
        if isinstance(v.ty, T.Float):
            return Val(v.ty, arith.negf(v.v))
        if isinstance(v.ty, T.Int) and v.ty.signed:
            zero = arith.constant(v.ty.mlir(), ir.IntegerAttr.get(v.ty.mlir(), 0))
            return Val(v.ty, arith.subi(zero, v.v))
        raise err(e.loc, f"cannot negate `{v.ty}`")
    if e.op == "!":
        v = em.expr(e.operand, expected)
        if isinstance(v.ty, (T.Bool, T.Int)):
            ones = arith.constant(v.ty.mlir(), ir.IntegerAttr.get(v.ty.mlir(), -1))
            return Val(v.ty, arith.xori(v.v, ones))
        raise err(e.loc, f"cannot apply `!` to `{v.ty}`")
    if e.op == "*":
        return as_value(em, place_or_value(em, e))
    if e.op in ("&", "&mut"):
        if e.op == "&mut":
            cell = local_cell(em, e.operand)
            if cell is None and isinstance(e.operand, (ast.Index, ast.Field)) \
                    and not (isinstance(e.operand, ast.Index) and isinstance(e.operand.index, ast.Range)):
                place = local_element_place(em, e.operand)  # `&mut arr[j].0`: an element of a local array
                if place is not None:
                    try:
                        cell = element_cell(*place)
                    except TypeError as exc:
                        raise err(e.loc, f"{exc} is not supported in device code") from None
            if cell is not None:
                return Val(T.LocalRef(cell.ty, True), cell)
        if is_place_syntax(e.operand):
            handle = borrow(em, e)
        else:
            handle = em.expr(e.operand, expected if e.op == "&" else None)
        if e.op == "&" or isinstance(handle.ty, (T.Slice, T.Disjoint, T.Shared, T.Ptr, T.ElemRef, T.Atomic, T.PlaceRef,
                                                 T.FnItem, T.Closure, T.LocalSlice, T.PtrSlice)):
            return handle  # `&x` of a Copy value is the value; `&mut` of a handle is a reborrow of its memory
        raise err(e.loc, "taking `&mut` of anything but a `let mut` local (or a field of one) is not supported "
                         "in device code")
    raise err(e.loc, f"unary `{e.op}` is not supported")
