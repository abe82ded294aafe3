"""Check-once views of a DisjointSlice: `element_thread32` (Index1D) and `thread_run32` / `tile_thread32`
(`LinearTiles<N>`), and the element slots they hand out (`read`, `write`, `get`).

The bounds are checked once, when the view is made: thread t (a valid 1-D witness) owns elements
[t*N, t*N + N) of a `LinearTiles<N>` slice, so no two threads share one. A run may be clipped at the end of
the slice (`thread_run32`, `at(k)` is None past its length); a tile is whole or None (`tile_thread32`,
`at_const::<I>()` is checked against N at compile time). A slot is an element reference (`&mut T`).
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.rust import ast
from oxide.frontends.rust import types as T
from oxide.frontends.rust.emit_support import err
from oxide.frontends.rust.values import OptionVal, Val


def _i64(value: int) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    return arith.constant(i64, ir.IntegerAttr.get(i64, value))


def _witness(em: Any, arg: ast.Expr, name: str) -> Val:
    witness = em.expr(arg)
    if not isinstance(witness.ty, T.ThreadIndex) or witness.ty.space != "1d":
        raise err(arg.loc, f"`{name}` takes a 1-D thread index (`thread::index_1d_u32(..)`), not `{witness.ty}`")
    return witness


def disjoint_view(em: Any, recv: Val, e: ast.MethodCall) -> Val | None:
    """element_thread32 / thread_run32 / tile_thread32 on a DisjointSlice; None for other methods."""
    ty: T.Disjoint = recv.ty
    if e.name == "element_thread32" and len(e.args) == 1:
        if ty.space != "1d":
            raise err(e.loc, f"`element_thread32` needs an Index1D slice, not `{ty}`")
        witness = _witness(em, e.args[0], e.name)
        ok, ref = simt.GetMutOp.build(recv.v, witness.v)  # valid and in bounds: this thread's element
        return Val(T.OptionTy(T.ElemRef(ty.elem)), OptionVal(ok, Val(T.ElemRef(ty.elem), ref)))
    if e.name not in ("thread_run32", "tile_thread32") or len(e.args) != 1:
        return None
    if not ty.space.startswith("tiles:"):
        raise err(e.loc, f"`{e.name}` needs a `DisjointSlice<T, LinearTiles<N>>`, not `{ty}`")
    count = int(ty.space[6:])
    witness = _witness(em, e.args[0], e.name)
    thread = arith.index_cast(ir.IntegerType.get_signless(64), simt.IndexValueOp.build(witness.v))
    valid = simt.IndexValidOp.build(witness.v)
    length = arith.index_cast(ir.IntegerType.get_signless(64), simt.LenOp.build(recv.v))
    base = arith.muli(thread, _i64(count))
    # The run starts inside the slice; a tile also ends inside it. Witness values are < 2^32, so base + N
    # cannot wrap in 64 bits.
    ule = arith.CmpIPredicate.ule
    if e.name == "tile_thread32":
        ok = arith.andi(valid, arith.cmpi(ule, arith.addi(base, _i64(count)), length))
        run_length = _i64(count)
    else:
        ok = arith.andi(valid, arith.cmpi(arith.CmpIPredicate.ult, base, length))
        remaining = arith.subi(length, arith.select(ok, base, length))
        run_length = arith.minui(remaining, _i64(count))
    run_ty = T.ThreadRun(ty.elem, count, e.name == "tile_thread32")
    return Val(T.OptionTy(run_ty), OptionVal(ok, Val(run_ty, (recv, base, run_length))))


def run_method(em: Any, recv: Val, e: ast.MethodCall) -> Val:
    """len / at(k) / at_const::<I>() of a run or tile."""
    ty: T.ThreadRun = recv.ty
    handle, base, length = recv.v
    ref_ty = T.ElemRef(ty.elem)
    if e.name == "len" and not e.args:
        return Val(T.USIZE, length)
    if e.name == "at" and len(e.args) == 1:
        k = em.coerce(em.expr(e.args[0], T.USIZE), T.USIZE, e.args[0].loc)
        ok = arith.cmpi(arith.CmpIPredicate.ult, k.v, length)
        at = arith.addi(base, arith.select(ok, k.v, _i64(0)))  # a None keeps its (unused) address in the run
        ref = simt.GetUncheckedMutOp.build(handle.v, arith.index_cast(ir.IndexType.get(), at), results=[ref_ty.mlir()])
        return Val(T.OptionTy(ref_ty), OptionVal(ok, Val(ref_ty, ref)))
    if e.name == "at_const" and len(e.generics) == 1 and not e.args:
        if not ty.whole:
            raise err(e.loc, "`at_const` needs a whole tile (`tile_thread32`); a run from `thread_run32` may be "
                             "clipped: use `at(k)`")
        k = em.const_arg(e.generics[0])
        if not 0 <= k < ty.count:
            raise err(e.loc, f"index {k} is out of bounds for a tile of {ty.count} elements")
        at = arith.index_cast(ir.IndexType.get(), arith.addi(base, _i64(k)))
        return Val(ref_ty, simt.GetUncheckedMutOp.build(handle.v, at, results=[ref_ty.mlir()]))
    raise err(e.loc, f"no method named `{e.name}` found for `{ty}`")


def slot_method(em: Any, recv: Val, e: ast.MethodCall) -> Val | None:
    """read / get / write(v) of an element slot (an element reference)."""
    ty: T.ElemRef = recv.ty
    if e.name in ("read", "get") and not e.args and T.is_scalar(ty.elem):
        return Val(ty.elem, simt.RefLoadOp.build(recv.v))
    if e.name == "write" and len(e.args) == 1 and T.is_scalar(ty.elem):
        value = em.coerce(em.expr(e.args[0], ty.elem), ty.elem, e.args[0].loc)
        simt.RefStoreOp.build(recv.v, value.v)
        return Val(T.UNIT, None)
    return None
