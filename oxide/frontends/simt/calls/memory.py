"""Memory through raw pointers and raw parts: `ptr::read`/`write` (and `_volatile`), `ptr::copy` and
`copy_nonoverlapping`, `mem::swap` of two locals, `slice::from_raw_parts(_mut)`,
`DisjointSlice::from_raw_parts(_mut|_with_space)` and `DynamicSharedArray::get/get_raw/offset`."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.calls.scalars import attr_i64
from oxide.frontends.simt.expressions.indexing import index_value
from oxide.frontends.simt.ptr_slices import from_pointer
from oxide.frontends.simt.values import Cell, Val, load_cell, store_cell
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err


def _arity(n: int) -> Any:
    return lambda em, segs, generics, args, *_: len(args) == n


@device_fn("ptr::read", "ptr::read_volatile", "ptr::write", "ptr::write_volatile")
def _read_write(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    name = segs[-1]
    em.require_unsafe(loc, f"`ptr::{name}`")
    p = em.expr(args[0])
    if not isinstance(p.ty, T.Ptr):
        raise err(args[0].loc, f"`ptr::{name}` takes a raw pointer, not `{p.ty}`")
    if name.startswith("read"):
        return Val(p.ty.elem, (simt.VolatileLoadOp if "volatile" in name else simt.PtrLoadOp).build(p.v))
    value = em.coerce(em.expr(args[1], p.ty.elem), p.ty.elem, args[1].loc)
    (simt.VolatileStoreOp if "volatile" in name else simt.PtrStoreOp).build(p.v, value.v)
    return Val(T.UNIT, None)


@device_fn("ptr::copy_nonoverlapping", "ptr::copy", when=_arity(3))
def _copy(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val:
    name = segs[-1]
    em.require_unsafe(loc, f"`ptr::{name}`")
    src, dst = em.expr(args[0]), em.expr(args[1])
    if not (isinstance(src.ty, T.Ptr) and isinstance(dst.ty, T.Ptr) and src.ty.elem == dst.ty.elem):
        raise err(loc, f"`ptr::{name}` takes two raw pointers to one element type")
    count = index_value(em, args[2])
    # Element by element; `copy` (memmove) of ranges that may overlap walks down from the end when the
    # destination lies above the source, so every element is read before it is overwritten.
    backward = None
    if name == "copy":
        backward = arith.cmpi(arith.CmpIPredicate.ugt, simt.PtrToIntOp.build(dst.v), simt.PtrToIntOp.build(src.v))
    loop = scf.ForOp(arith.constant(ir.IndexType.get(), 0), count, arith.constant(ir.IndexType.get(), 1))
    with ir.InsertionPoint(loop.body):
        i = loop.induction_variable
        if backward is not None:
            last = arith.subi(count, arith.constant(ir.IndexType.get(), 1))
            i = arith.select(backward, arith.subi(last, i), i)
        value = simt.PtrLoadOp.build(simt.PtrOffsetOp.build(src.v, i))
        simt.PtrStoreOp.build(simt.PtrOffsetOp.build(dst.v, i), value)
        scf.YieldOp([])
    return Val(T.UNIT, None)


@device_fn("mem::swap", when=_arity(2))
def _swap(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val:
    cells = []
    for a in args:
        target = a.operand if isinstance(a, ast.Unary) and a.op == "&mut" else None
        cell = em.lookup(target.segments[0]) if isinstance(target, ast.PathExpr) and len(target.segments) == 1 else None
        if not isinstance(cell, Cell):
            raise err(a.loc, "`mem::swap` takes `&mut` of two `let mut` locals here")
        cells.append(cell)
    if cells[0].ty != cells[1].ty:
        raise err(loc, f"`mem::swap` of `{cells[0].ty}` and `{cells[1].ty}`")
    first, second = load_cell(cells[0]), load_cell(cells[1])
    first, second = em.owned(first), em.owned(second)
    store_cell(cells[0], second)
    store_cell(cells[1], first)
    return Val(T.UNIT, None)


@device_fn("slice::from_raw_parts", "slice::from_raw_parts_mut", "DisjointSlice::from_raw_parts",
           "DisjointSlice::from_raw_parts_mut", when=_arity(2))
@device_fn("DisjointSlice::from_raw_parts_with_space", when=_arity(3))
def _from_raw_parts(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val:
    name = segs[-1]
    em.require_unsafe(loc, f"`{segs[-2]}::{name}`")
    p = em.expr(args[0])
    if not isinstance(p.ty, T.Ptr):
        raise err(args[0].loc, f"`{name}` takes a raw pointer, not `{p.ty}`")
    length = index_value(em, args[1])
    if p.ty.space != 1:
        if segs[-2] == "DisjointSlice":
            raise err(args[0].loc, "a DisjointSlice is built from a pointer into global memory; this one points "
                                   f"into {'shared' if p.ty.space == 3 else 'generic'} memory")
        return from_pointer(p, length, name.endswith("_mut"))  # shared or generic memory
    if segs[-2] == "DisjointSlice":
        return _disjoint_from_raw_parts(em, p, length, args[2] if len(args) == 3 else None, expected, loc)
    result_ty = T.Slice(p.ty.elem, name.endswith("_mut"))
    return Val(result_ty, simt.SliceFromPtrOp.build(p.v, length, results=[result_ty.mlir()]))


def _disjoint_from_raw_parts(em: Emitter, p: Val, length: ir.Value, space_arg: ast.Expr | None,
                             expected: T.Ty | None, loc: Any) -> Val:
    """`DisjointSlice::from_raw_parts(p, len)` and `from_raw_parts_with_space(p, len, space)`: the index space is
    the expected type's (`let s: DisjointSlice<T, Index2D<16>> = ...`, a parameter's), else what the space value
    says: `()` for a 1-D slice, a `u32` row width for a runtime 2-D one."""
    space_value = em.expr(space_arg, T.PRIMITIVES["u32"]) if space_arg is not None else None
    if isinstance(expected, T.Disjoint):
        space = expected.space
    elif space_value is not None and not isinstance(space_value.ty, T.Unit):
        space = "runtime_2d"
    else:
        space = "1d"
    if space == "runtime_2d":
        if space_value is None or isinstance(space_value.ty, T.Unit):
            raise err(loc, "a runtime 2-D DisjointSlice needs its row width: "
                           "`DisjointSlice::from_raw_parts_with_space(ptr, len, row_width)`")
        width = em.coerce(space_value, T.PRIMITIVES["u32"], space_arg.loc)
        flat = simt.SliceFromPtrOp.build(p.v, length, results=[T.Disjoint(p.ty.elem, "1d").mlir()])
        result_ty = T.Disjoint(p.ty.elem, space)
        return Val(result_ty, simt.WithRowWidthOp.build(flat, width.v, results=[result_ty.mlir()]))
    if space_value is not None and not isinstance(space_value.ty, T.Unit):
        raise err(space_arg.loc, f"a `DisjointSlice<_, {T.space_rust(space)}>` has no runtime layout: its space value "
                                 f"is `()`, not `{space_value.ty}`")
    result_ty = T.Disjoint(p.ty.elem, space)
    return Val(result_ty, simt.SliceFromPtrOp.build(p.v, length, results=[result_ty.mlir()]))


@device_fn("DynamicSharedArray::get", "DynamicSharedArray::get_raw", "DynamicSharedArray::offset")
def _dynamic_shared(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val:
    name = segs[-1]
    if name == "get_raw":
        generics = [ast.PathTy(loc, "u8")] + list(generics[1:])
    elem = em.resolve_type(generics[0]) if generics else T.F32
    align = em.align_arg(generics[1], "`DynamicSharedArray`") if len(generics) > 1 else 16
    ptr_ty = T.Ptr(elem, True, 3)
    offset = index_value(em, args[0]) if name == "offset" and args else arith.constant(ir.IndexType.get(), 0)
    return Val(ptr_ty, simt.DynamicSharedOp.build(offset, align=attr_i64(align), results=[ptr_ty.mlir()]))
