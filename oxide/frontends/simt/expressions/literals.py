"""Literals and names: `1.0f32`, `x`, `N` (a const generic), `CONST`, `Q::ASSOC`, `None`, unit structs
and functions used as values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.simt import safety
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.paths import path_value, strip_modules
from oxide.frontends.simt.emit_support import i1, int_attr
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions.placeholders import none_of
from oxide.frontends.simt.calls.constant_memory import ConstantMemoryTy, constant_memory_handle
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Cell, Val, load_cell
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.literals import check_float_range


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@emits(ast.Lit)
def e_Lit(em: FunctionEmitter, e: ast.Lit, expected: T.Ty | None) -> Val:
    if e.kind == "bool":
        return Val(T.BOOL, i1(e.value))
    if e.kind == "str":
        raise err(e.loc, "string values are not supported in device code (only as a gpu_printf! format)")
    if e.kind == "int":
        ty = T.PRIMITIVES[e.suffix] if e.suffix else expected if isinstance(expected, (T.Int, T.Float)) else T.PRIMITIVES["i32"]
        if isinstance(ty, T.Float):
            check_float_range(float(e.value), ty.rust(), e.loc)
            return Val(ty, arith.constant(ty.mlir(), ir.FloatAttr.get(ty.mlir(), float(e.value))))
        bits = ty.bits
        value = e.value
        if not (-(1 << (bits - 1)) if ty.signed else 0) <= value < (1 << bits):
            if value >= (1 << bits) or not ty.signed:
                raise err(e.loc, f"literal out of range for `{ty}`")
        if value >= (1 << (bits - 1)):
            value -= 1 << bits  # MLIR takes the two's-complement bit pattern as a signed value
        v = Val(ty, arith.constant(ty.mlir(), int_attr(ty.mlir(), value)))
        v.literal = e if not e.suffix and not isinstance(expected, (T.Int, T.Float)) else None
        return v
    ty = T.PRIMITIVES[e.suffix] if e.suffix else expected if isinstance(expected, T.Float) else T.F64
    check_float_range(e.value, ty.rust(), e.loc)  # `let x: f32 = 1e39;` would be infinity
    v = Val(ty, arith.constant(ty.mlir(), ir.FloatAttr.get(ty.mlir(), e.value)))
    v.literal = e if not e.suffix and not isinstance(expected, T.Float) else None
    return v


@emits(ast.PathExpr)
def e_PathExpr(em: FunctionEmitter, e: ast.PathExpr, expected: T.Ty | None) -> Val:
    segments = strip_modules(em, e.segments) if len(e.segments) > 1 else e.segments
    if len(segments) == 1:
        name = segments[0]
        bound = em.lookup(name)
        if isinstance(bound, Cell):
            value = load_cell(bound)
            value.flex = getattr(bound, "flex", None)
            return value
        if isinstance(bound, Val):
            safety.use_binding(em, name, bound, e.loc)
            return bound
        generic = em.generics[-1].get(name)
        if isinstance(generic, int):
            ty = expected if isinstance(expected, T.Int) else T.USIZE
            low, high = (-(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1) if ty.signed else (0, (1 << ty.bits) - 1)
            if not low <= generic <= high:
                raise err(e.loc, f"const generic `{name}` is {generic}, which does not fit in `{ty}` "
                                 f"({low} to {high}); instantiate it with a value in range")
            return Val(ty, arith.constant(ty.mlir(), int_attr(ty.mlir(), generic)))
        const = em.crate.const(name)
        if const is not None:
            ty = em.resolve_type(const.ty)
            if isinstance(ty, ConstantMemoryTy):
                return constant_memory_handle(em, name, ty)  # a `#[constant] static`: read through its address
            return em.coerce(em.expr(const.value, ty), ty, const.value.loc)
        if name == "None":
            if not isinstance(expected, T.OptionTy):
                raise err(e.loc, "cannot infer the type of `None` here; annotate the binding")
            return none_of(expected)
    value = path_value(em, e, expected)
    if value is not None:
        return value
    assoc = em.assoc_const(segments[0], segments[1]) if len(segments) == 2 else None
    if assoc is not None:
        ty = em.resolve_type(assoc.ty)  # `P::TAG`, `Self::N`, `Config::SCALE`
        return em.coerce(em.expr(assoc.value, ty), ty, assoc.value.loc)
    struct = em.crate.struct(segments[0]) if len(segments) == 1 else None
    if struct is not None and not struct.fields:
        return em.expr(ast.StructLit(e.loc, [segments[0]], []), expected)  # a unit struct: `Marker`
    fn = em.crate.function(segments[0]) if len(segments) == 1 else None
    if fn is not None and not fn.attrs.get("kernel"):
        return Val(T.FnItem((segments[-1],)), list(e.generics))  # a function used as a value (and its turbofish)
    raise err(e.loc, f"cannot find value `{'::'.join(e.segments)}` in this scope")
