"""Check-once views of a DisjointSlice: `element_thread32` (Index1D) and `thread_run32` / `tile_thread32` /
`grid_stride_runs32` (`LinearTiles<N>`), and the element slots they hand out (`read`, `write`, `get`).

The bounds are checked once, when the view is made: thread t (a valid 1-D witness) owns elements
[t*N, t*N + N) of a `LinearTiles<N>` slice, so no two threads share one. A run may be clipped at the end of
the slice (`thread_run32`, `at(k)` is None past its length); a tile is whole or None (`tile_thread32`,
`at_const::<I>()` is checked against N at compile time). `grid_stride_runs32` hands thread t the runs t,
t + P, t + 2P, ... (P = gridDim.x * blockDim.x threads in the grid) through `next_run()`: run indices of two
threads differ modulo P, so they never share a run either. A slot is an element reference (`&mut T`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import OptionVal, Val, load_cell, new_cell, store_cell

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def _i64(value: int) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    return arith.constant(i64, ir.IntegerAttr.get(i64, value))


def _witness(em: FunctionEmitter, arg: ast.Expr, name: str) -> Val:
    witness = em.expr(arg)
    if not isinstance(witness.ty, T.ThreadIndex) or witness.ty.space != "1d":
        raise err(arg.loc, f"`{name}` takes a 1-D thread index (`thread::index_1d_u32(..)`), not `{witness.ty}`")
    return witness


def disjoint_view(em: FunctionEmitter, recv: Val, e: ast.MethodCall) -> Val | None:
    """element_thread32 / thread_run32 / tile_thread32 on a DisjointSlice; None for other methods."""
    ty: T.Disjoint = recv.ty
    if e.name == "element_thread32" and len(e.args) == 1:
        if ty.space != "1d":
            raise err(e.loc, f"`element_thread32` needs an Index1D slice, not `{ty}`")
        witness = _witness(em, e.args[0], e.name)
        ok, ref = simt.GetMutOp.build(recv.v, witness.v)  # valid and in bounds: this thread's element
        return Val(T.OptionTy(T.ElemRef(ty.elem)), OptionVal(ok, Val(T.ElemRef(ty.elem), ref)))
    if e.name not in ("thread_run32", "tile_thread32", "grid_stride_runs32") or len(e.args) != 1:
        return None
    if not ty.space.startswith("tiles:"):
        raise err(e.loc, f"`{e.name}` needs a `DisjointSlice<T, LinearTiles<N>>`, not `{ty}`")
    count = int(ty.space[6:])
    witness = _witness(em, e.args[0], e.name)
    thread = arith.index_cast(ir.IntegerType.get_signless(64), simt.IndexValueOp.build(witness.v))
    valid = simt.IndexValidOp.build(witness.v)
    if e.name == "grid_stride_runs32":
        return _grid_runs(em, recv, thread, valid, count)
    if e.name == "thread_run32":
        return _run_at(recv, thread, count, valid)
    # A tile ends inside the slice. Witness values are < 2^32, so base + N cannot wrap in 64 bits.
    length = arith.index_cast(ir.IntegerType.get_signless(64), simt.LenOp.build(recv.v))
    base = arith.muli(thread, _i64(count))
    ok = arith.andi(valid, arith.cmpi(arith.CmpIPredicate.ule, arith.addi(base, _i64(count)), length))
    run_ty = T.ThreadRun(ty.elem, count, True)
    return Val(T.OptionTy(run_ty), OptionVal(ok, Val(run_ty, (recv, base, _i64(count)))))


def _run_at(recv: Val, run: ir.Value, count: int, valid: ir.Value) -> Val:
    """`Option<ThreadRunMut32>` of run number `run`: elements [run*N, run*N + N) clipped to the slice, None
    when the run starts past its end."""
    length = arith.index_cast(ir.IntegerType.get_signless(64), simt.LenOp.build(recv.v))
    base = arith.muli(run, _i64(count))
    ok = arith.andi(valid, arith.cmpi(arith.CmpIPredicate.ult, base, length))
    remaining = arith.subi(length, arith.select(ok, base, length))
    run_ty = T.ThreadRun(recv.ty.elem, count, False)
    return Val(T.OptionTy(run_ty), OptionVal(ok, Val(run_ty, (recv, base, arith.minui(remaining, _i64(count))))))


def _grid_runs(em: FunctionEmitter, recv: Val, thread: ir.Value, valid: ir.Value, count: int) -> Val:
    """The runs of thread `thread`: the next run's number lives in a cell that `next_run()` advances by the
    grid's thread count (an invalid witness gets no runs)."""
    i64 = ir.IntegerType.get_signless(64)
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(T.PRIMITIVES["u64"])
    store_cell(cell, Val(T.PRIMITIVES["u64"], thread))
    x = simt.DimAttr.get("x")
    threads = arith.muli(simt.GridDimOp.build(dim=x), simt.BlockDimOp.build(dim=x))
    period = arith.extui(i64, threads)
    ty = T.GridRuns(recv.ty.elem, count)
    return Val(ty, (recv, cell, period, valid))


def grid_runs_method(em: FunctionEmitter, recv: Val, e: ast.MethodCall) -> Val:
    """`runs.next_run()`: this thread's next run (None once it starts past the slice's end)."""
    if e.name != "next_run" or e.args:
        raise err(e.loc, f"no method named `{e.name}` found for `{recv.ty}` (it has `next_run()`)")
    handle, cell, period, valid = recv.v
    run = load_cell(cell).v
    store_cell(cell, Val(T.PRIMITIVES["u64"], arith.addi(run, period)))
    return _run_at(handle, run, recv.ty.count, valid)


def run_method(em: FunctionEmitter, recv: Val, e: ast.MethodCall) -> Val:
    """len / is_clipped / at(k) / at_const::<I>() of a run or tile (lengths and indices are u32)."""
    ty: T.ThreadRun = recv.ty
    handle, base, length = recv.v
    ref_ty = T.ElemRef(ty.elem)
    u32 = T.PRIMITIVES["u32"]
    if e.name == "len" and not e.args:  # a `u32`, as every index of the `*32` views
        return Val(u32, arith.trunci(u32.mlir(), length))
    if e.name == "is_clipped" and not e.args:  # a tail run cut short by the end of the slice
        return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.ult, length, _i64(ty.count)))
    if e.name == "at" and len(e.args) == 1:
        k = arith.extui(ir.IntegerType.get_signless(64), em.coerce(em.expr(e.args[0], u32), u32, e.args[0].loc).v)
        ok = arith.cmpi(arith.CmpIPredicate.ult, k, length)
        at = arith.addi(base, arith.select(ok, k, _i64(0)))  # a None keeps its (unused) address in the run
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


def slot_method(em: FunctionEmitter, recv: Val, e: ast.MethodCall) -> Val | None:
    """read / get / write(v) of an element slot (an element reference)."""
    ty: T.ElemRef = recv.ty
    if e.name in ("read", "get") and not e.args and T.is_scalar(ty.elem):
        return Val(ty.elem, simt.RefLoadOp.build(recv.v))
    if e.name == "write" and len(e.args) == 1 and T.is_scalar(ty.elem):
        value = em.coerce(em.expr(e.args[0], ty.elem), ty.elem, e.args[0].loc)
        simt.RefStoreOp.build(recv.v, value.v)
        return Val(T.UNIT, None)
    return None
