"""Check-once 2-D tile views of a DisjointSlice: `tile_2d32(coord)` of a `RowMajorTiles<R, C, S>` slice and
`tile_2d32_rt(coord)` of a `RuntimeRowMajorTiles<R, C>` one, and `at_const::<r, c>()` on the tile.

The slice is a row-major matrix with S elements per row (the static S, or the slice's runtime row width).
Thread (row, col) (a `ThreadCoord2D32` from `thread::coord_2d_u32`) owns the R x C tile whose top-left element
is (row*R, col*C). The view exists only when the whole tile is inside the slice and its columns inside one
matrix row (col*C + C <= S): two threads' tiles then never share an element, which is what lets the tile hand
out `&mut` slots. `at_const::<r, c>()` is checked against R x C at compile time and reads no bounds at run time.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import OTHER, device_method
from oxide.frontends.simt.values import OptionVal, Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err


def _i64(value: int) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    return arith.constant(i64, ir.IntegerAttr.get(i64, value))


def _as_i64(v: ir.Value) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    if str(v.type) == "index":
        return arith.index_cast(i64, v)
    return arith.extui(i64, v) if str(v.type) != "i64" else v


@device_method(T.Disjoint, "tile_2d32", "tile_2d32_rt", when=lambda em, recv, name, args, *_: len(args) == 1)
def _tile_view(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    """`tile_2d32(coord)` / `tile_2d32_rt(coord)`: the thread's tile, None unless it lies inside the slice
    and its columns inside one matrix row."""
    ty: T.Disjoint = recv.ty
    runtime = name == "tile_2d32_rt"
    wanted = "rttiles:" if runtime else "rmtiles:"
    if not ty.space.startswith(wanted):
        need = "RuntimeRowMajorTiles<R, C>" if runtime else "RowMajorTiles<R, C, S>"
        raise err(loc, f"`{name}` needs a `DisjointSlice<T, {need}>`, not `{ty}`")
    dims = [int(d) for d in ty.space[len(wanted):].split(":")]
    rows, cols = dims[0], dims[1]
    coord = em.expr(args[0])
    if not isinstance(coord.ty, T.ThreadIndex) or coord.ty.space != "coord2d":
        raise err(args[0].loc, f"`{name}` takes a 2-D thread coordinate (`thread::coord_2d_u32(..)`), "
                                 f"not `{coord.ty}`")
    stride = _as_i64(simt.RowWidthOp.build(recv.v)) if runtime else _i64(dims[2])
    row = _as_i64(simt.IndexRowOp.build(coord.v))
    col = _as_i64(simt.IndexColOp.build(coord.v))
    length = _as_i64(simt.LenOp.build(recv.v))
    # Coordinates are < 2^32 and R, C small, so first/last row and column cannot wrap in 64 bits.
    first_row = arith.muli(row, _i64(rows))
    last_row = arith.addi(first_row, _i64(rows - 1))
    first_col = arith.muli(col, _i64(cols))
    last_col = arith.addi(first_col, _i64(cols - 1))
    ult, ule = arith.CmpIPredicate.ult, arith.CmpIPredicate.ule
    # last_row * S + last_col < len, written so that nothing overflows: last_col < len, and
    # last_row <= (len - last_col - 1) / S (S > 0 whenever last_col < S).
    cols_fit = arith.cmpi(ult, last_col, stride)
    inside = arith.cmpi(ult, last_col, length)
    divisor = arith.select(cols_fit, stride, _i64(1))
    room = arith.subi(length, arith.addi(arith.select(inside, last_col, _i64(0)), _i64(1)))
    rows_fit = arith.cmpi(ule, last_row, arith.divui(arith.select(inside, room, _i64(0)), divisor))
    ok = arith.andi(arith.andi(simt.IndexValidOp.build(coord.v), cols_fit), arith.andi(inside, rows_fit))
    base = arith.addi(arith.muli(first_row, stride), first_col)
    tile_ty = T.Tile2D(ty.elem, rows, cols, runtime)
    return Val(T.OptionTy(tile_ty), OptionVal(ok, Val(tile_ty, (recv, base, stride))))


@device_method(T.Tile2D, "at_const")
def _at_const(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    """`at_const::<r, c>()` of a tile: the slot of element (r, c)."""
    ty: T.Tile2D = recv.ty
    if len(generics) != 2 or args:
        raise _no_tile_method(loc, name, ty)
    handle, base, stride = recv.v
    r, c = em.const_arg(generics[0]), em.const_arg(generics[1])
    if not (0 <= r < ty.rows and 0 <= c < ty.cols):
        raise err(loc, f"index ({r}, {c}) is out of bounds for a {ty.rows} x {ty.cols} tile")
    at = arith.addi(base, arith.addi(arith.muli(_i64(r), stride), _i64(c)))
    ref_ty = T.ElemRef(ty.elem)
    return Val(ref_ty, simt.GetUncheckedMutOp.build(handle.v, arith.index_cast(ir.IndexType.get(), at),
                                                     results=[ref_ty.mlir()]))


@device_method(T.Tile2D, OTHER)
def _not_a_tile_method(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                       expected: T.Ty | None) -> Val:
    raise _no_tile_method(loc, name, recv.ty)


def _no_tile_method(loc: Any, name: str, ty: T.Ty) -> Exception:
    return err(loc, f"no method named `{name}` found for `{ty}` (it has `at_const::<r, c>()`)")
