"""cuda_device's proof-carrying read views: `MatrixView32::new(slice, stride)` reads a `&[T]` as a row-major
matrix with `stride` elements per row; `m.row(r, len)` / `m.col(c, len)` are `Option<RowView32>` /
`Option<ColView32>`, Some only when all `len` elements (row r from column 0, or column c from row 0) lie in the
slice. A view is then read with no further bounds checks: `v.get(i)` (None past its length), `v.len()`,
`for x in v.iter()`, and `a.zip_exact(b)` (Some when the lengths agree) iterated as `for (x, y) in pair`.
`RowView32::empty()` / `ColView32::empty()` are views of no elements (`m.row(r, k).unwrap_or(RowView32::empty())`).

A view is a frontend value: (pointer to its first element, element step, length), all i64 but the pointer.
An `empty()` view has no pointer; it exists only as the default of `unwrap_or`, whose result keeps the
optional view's pointer and a length of 0 when None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import OptionVal, Val, zero_value


@dataclass(frozen=True)
class MatrixViewTy(T.Ty):
    """`MatrixView32<T>`: a read-only slice seen as rows of `stride` elements."""

    elem: T.Ty

    def rust(self) -> str:
        return f"MatrixView32<{self.elem.rust()}>"


@dataclass(frozen=True)
class LineViewTy(T.Ty):
    """`RowView32<T>` / `ColView32<T>`: elements at a fixed step, all inside the slice they view."""

    elem: T.Ty
    column: bool

    def rust(self) -> str:
        return f"{'ColView32' if self.column else 'RowView32'}<{self.elem.rust()}>"


@dataclass(frozen=True)
class ZipViewTy(T.Ty):
    """`a.zip_exact(b)` of two views of one length: iterated as pairs."""

    left: LineViewTy
    right: LineViewTy

    def rust(self) -> str:
        return f"ZipExact32<{self.left.rust()}, {self.right.rust()}>"


@dataclass
class Line:
    """A view's parts: `ptr` (its first element; None for an empty view), `step` and `length` (i64)."""

    ptr: ir.Value | None
    step: ir.Value
    length: ir.Value


def _i64(value: int) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    return arith.constant(i64, ir.IntegerAttr.get(i64, value))


def _u32(em: Emitter, e: ast.Expr) -> ir.Value:
    """A u32 argument, zero-extended to i64."""
    value = em.coerce(em.expr(e, T.PRIMITIVES["u32"]), T.PRIMITIVES["u32"], e.loc)
    return arith.extui(ir.IntegerType.get_signless(64), value.v)


@device_fn("MatrixView32::new")
def _new(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
         loc: Any) -> Val:
    """`MatrixView32::new(slice, stride)`."""
    if len(args) != 2:
        raise err(loc, "`MatrixView32::new` takes a slice and a row stride: `MatrixView32::new(a, k)`")
    s = em.expr(args[0])
    if not isinstance(s.ty, T.Slice) or T.is_aggregate(s.ty.elem):
        raise err(args[0].loc, f"`MatrixView32::new` takes a `&[T]` of scalars in global memory, not `{s.ty}`")
    ptr = simt.SlicePtrOp.build(s.v, results=[T.Ptr(s.ty.elem, False, 1).mlir()])
    length = arith.index_cast(ir.IntegerType.get_signless(64), simt.LenOp.build(s.v))
    return Val(MatrixViewTy(s.ty.elem), (ptr, length, _u32(em, args[1])))


@device_fn("RowView32::empty", "ColView32::empty", when=lambda em, segs, generics, args, *_: not args)
def _empty(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
           loc: Any) -> Val:
    """`RowView32::empty()` / `ColView32::empty()`: the element type comes from where it is used."""
    if not isinstance(expected, LineViewTy):
        raise err(loc, f"cannot infer the element type of `{segs[-2]}::empty()`; use it where a view is expected")
    return Val(expected, Line(None, _i64(1), _i64(0)))


def _line(recv: Val, column: bool, args: list[ast.Expr], em: Emitter) -> Val:
    ptr, length, stride = recv.v
    at, count = _u32(em, args[0]), _u32(em, args[1])
    ult = arith.CmpIPredicate.ult
    # First element: (r, 0) at r*stride, or (0, c) at c; last: len-1 steps of 1 (row) or stride (column) on.
    # r, c, len and stride are below 2^32, so none of this wraps in 64 bits.
    first = at if column else arith.muli(at, stride)
    step = stride if column else _i64(1)
    last = arith.addi(first, arith.muli(arith.subi(count, _i64(1)), step))
    empty = arith.cmpi(arith.CmpIPredicate.eq, count, _i64(0))
    ok = arith.ori(empty, arith.andi(arith.cmpi(ult, first, length), arith.cmpi(ult, last, length)))
    start = arith.select(arith.andi(ok, arith.xori(empty, arith.constant(ir.IntegerType.get_signless(1), 1))),
                         first, _i64(0))
    first_ptr = simt.PtrOffsetOp.build(ptr, arith.index_cast(ir.IndexType.get(), start))
    view_ty = LineViewTy(recv.ty.elem, column)
    return Val(T.OptionTy(view_ty), OptionVal(ok, Val(view_ty, Line(first_ptr, step, count))))


def element(view: Val, i: ir.Value) -> Val:
    """Element i (i64, known to be below the view's length) of a view."""
    line: Line = view.v
    at = arith.index_cast(ir.IndexType.get(), arith.muli(i, line.step))
    return Val(view.ty.elem, simt.PtrLoadOp.build(simt.PtrOffsetOp.build(line.ptr, at)))


@device_method(MatrixViewTy, "row", "col")
def _row_col(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    if len(args) != 2:
        raise err(loc, f"`MatrixView32::{name}` takes an index and a length: `m.{name}(i, len)`")
    return _line(recv, name == "col", args, em)


def _line_of(recv: Val) -> Line:
    return recv.v if isinstance(recv.ty, LineViewTy) else recv.v[0].v


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _one_arg(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return len(args) == 1


@device_method(LineViewTy, "len", "is_empty", when=_no_args)
@device_method(ZipViewTy, "len", "is_empty", when=_no_args)
def _length(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
            expected: T.Ty | None) -> Val:
    line = _line_of(recv)
    if name == "len":
        return Val(T.USIZE, line.length)
    return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.eq, line.length, _i64(0)))


@device_method(LineViewTy, "iter", when=_no_args)
@device_method(ZipViewTy, "iter", when=_no_args)
def _iter(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
          expected: T.Ty | None) -> Val:
    return recv


@device_method(LineViewTy, "get", when=_one_arg)
def _get(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    ty, line = recv.ty, _line_of(recv)
    i = _u32(em, args[0])
    ok = arith.cmpi(arith.CmpIPredicate.ult, i, line.length)
    load = scf.IfOp(ok, [ty.elem.mlir()], has_else=True)  # an empty view has no element to read
    with ir.InsertionPoint(load.then_block):
        scf.YieldOp([element(recv, i).v])
    with ir.InsertionPoint(load.else_block):
        scf.YieldOp([zero_value(ty.elem)])
    return Val(T.OptionTy(ty.elem), OptionVal(ok, Val(ty.elem, load.result)))


@device_method(LineViewTy, "zip_exact", when=_one_arg)
def _zip_exact(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    other = em.expr(args[0])
    if not isinstance(other.ty, LineViewTy):
        raise err(args[0].loc, f"`zip_exact` takes a RowView32 or ColView32, not `{other.ty}`")
    same = arith.cmpi(arith.CmpIPredicate.eq, _line_of(recv).length, other.v.length)
    pair_ty = ZipViewTy(recv.ty, other.ty)
    return Val(T.OptionTy(pair_ty), OptionVal(same, Val(pair_ty, (recv, other))))


def is_view(ty: T.Ty) -> bool:
    """Whether `for` iterates over a value of `ty` as a view (its elements, or pairs of a zip)."""
    return isinstance(ty, (LineViewTy, ZipViewTy))


def loop_length(seq: Val) -> ir.Value:
    """How many times `for` over a view runs (an index)."""
    line: Line = seq.v if isinstance(seq.ty, LineViewTy) else seq.v[0].v
    return arith.index_cast(ir.IndexType.get(), line.length)


def loop_element(seq: Val, i: ir.Value) -> Val:
    """The value `for` over a view binds at step i (an index): an element, or a pair of a zip."""
    i64 = arith.index_cast(ir.IntegerType.get_signless(64), i)
    if isinstance(seq.ty, LineViewTy):
        return element(seq, i64)
    left, right = seq.v
    parts = [element(left, i64), element(right, i64)]
    return Val(T.Tuple((left.ty.elem, right.ty.elem)), parts)


def unwrap_or(em: Emitter, recv: Val, arg: ast.Expr, loc: Any) -> Val:
    """`opt.unwrap_or(RowView32::empty())` of an optional view: the view when Some, else no elements. (A
    non-empty default would need a choice of pointer at run time: refused.)"""
    opt: OptionVal = recv.v
    view: Val = opt.payload
    other = em.expr(arg, view.ty)
    if other.ty != view.ty:
        raise err(arg.loc, f"mismatched types: expected `{view.ty}`, found `{other.ty}`")
    if other.v.ptr is not None:
        raise err(arg.loc, "`unwrap_or` of an optional view takes an empty view (`RowView32::empty()`) in device "
                           "code; branch on the option to use another view")
    line: Line = view.v
    return Val(view.ty, Line(line.ptr, line.step, arith.select(opt.is_some, line.length, _i64(0))))
