"""Check-once views of a DisjointSlice: `element_thread32` (Index1D) and `thread_run32` / `tile_thread32` /
`grid_stride_runs32` (`LinearTiles<N>`), and the methods of the runs and tiles they hand out.

The bounds are checked once, when the view is made: thread t (a valid 1-D witness) owns elements
[t*N, t*N + N) of a `LinearTiles<N>` slice, so no two threads share one. A run may be clipped at the end of
the slice (`thread_run32`, `at(k)` is None past its length); a tile is whole or None (`tile_thread32`,
`at_const::<I>()` is checked against N at compile time). `grid_stride_runs32` hands thread t the runs t,
t + P, t + 2P, ... (P = gridDim.x * blockDim.x threads in the grid) through `next_run()`: run indices of two
threads differ modulo P, so they never share a run either. A slot is an element reference (`&mut T`,
references.py).
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import OTHER, device_method
from oxide.frontends.simt.values import OptionVal, Val, load_cell, new_cell, store_cell
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err


def _i64(value: int) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    return arith.constant(i64, ir.IntegerAttr.get(i64, value))


def _one_arg(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return len(args) == 1


def _witness(em: Emitter, arg: ast.Expr, name: str) -> Val:
    witness = em.expr(arg)
    if not isinstance(witness.ty, T.ThreadIndex) or witness.ty.space != "1d":
        raise err(arg.loc, f"`{name}` takes a 1-D thread index (`thread::index_1d_u32(..)`), not `{witness.ty}`")
    return witness


# The views of a DisjointSlice ------------------------------------------------------------------------------
@device_method(T.Disjoint, "element_thread32", when=_one_arg)
def _element_thread(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                    expected: T.Ty | None) -> Val:
    """`element_thread32(witness)` of an Index1D slice: this thread's element, if the witness is valid and
    in bounds."""
    ty: T.Disjoint = recv.ty
    if ty.space != "1d":
        raise err(loc, f"`element_thread32` needs an Index1D slice, not `{ty}`")
    witness = _witness(em, args[0], name)
    ok, ref = simt.GetMutOp.build(recv.v, witness.v)  # valid and in bounds: this thread's element
    return Val(T.OptionTy(T.ElemRef(ty.elem)), OptionVal(ok, Val(T.ElemRef(ty.elem), ref)))


def _thread_of(em: Emitter, recv: Val, name: str, arg: ast.Expr, loc: Any) -> tuple[int, ir.Value, ir.Value]:
    """N of a `LinearTiles<N>` slice, and the thread number and validity of the witness `arg`."""
    ty: T.Disjoint = recv.ty
    if not ty.space.startswith("tiles:"):
        raise err(loc, f"`{name}` needs a `DisjointSlice<T, LinearTiles<N>>`, not `{ty}`")
    count = int(ty.space[6:])
    witness = _witness(em, arg, name)
    thread = arith.index_cast(ir.IntegerType.get_signless(64), simt.IndexValueOp.build(witness.v))
    return count, thread, simt.IndexValidOp.build(witness.v)


@device_method(T.Disjoint, "thread_run32", when=_one_arg)
def _thread_run(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                expected: T.Ty | None) -> Val:
    """`thread_run32(witness)`: the thread's run, clipped to the slice."""
    count, thread, valid = _thread_of(em, recv, name, args[0], loc)
    return _run_at(recv, thread, count, valid)


@device_method(T.Disjoint, "tile_thread32", when=_one_arg)
def _tile_thread(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                 expected: T.Ty | None) -> Val:
    """`tile_thread32(witness)`: the thread's whole tile, None unless it ends inside the slice."""
    count, thread, valid = _thread_of(em, recv, name, args[0], loc)
    # Witness values are < 2^32, so base + N cannot wrap in 64 bits.
    length = arith.index_cast(ir.IntegerType.get_signless(64), simt.LenOp.build(recv.v))
    base = arith.muli(thread, _i64(count))
    ok = arith.andi(valid, arith.cmpi(arith.CmpIPredicate.ule, arith.addi(base, _i64(count)), length))
    run_ty = T.ThreadRun(recv.ty.elem, count, True)
    return Val(T.OptionTy(run_ty), OptionVal(ok, Val(run_ty, (recv, base, _i64(count)))))


@device_method(T.Disjoint, "grid_stride_runs32", when=_one_arg)
def _grid_stride_runs(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                      expected: T.Ty | None) -> Val:
    """`grid_stride_runs32(witness)`: the runs of the thread. The next run's number lives in a cell that
    `next_run()` advances by the grid's thread count (an invalid witness gets no runs)."""
    count, thread, valid = _thread_of(em, recv, name, args[0], loc)
    i64 = ir.IntegerType.get_signless(64)
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(T.PRIMITIVES["u64"])
    store_cell(cell, Val(T.PRIMITIVES["u64"], thread))
    x = simt.DimAttr.get("x")
    threads = arith.muli(simt.GridDimOp.build(dim=x), simt.BlockDimOp.build(dim=x))
    period = arith.extui(i64, threads)
    return Val(T.GridRuns(recv.ty.elem, count), (recv, cell, period, valid))


def _run_at(recv: Val, run: ir.Value, count: int, valid: ir.Value) -> Val:
    """`Option<ThreadRunMut32>` of run number `run`: elements [run*N, run*N + N) clipped to the slice, None
    when the run starts past its end."""
    length = arith.index_cast(ir.IntegerType.get_signless(64), simt.LenOp.build(recv.v))
    base = arith.muli(run, _i64(count))
    ok = arith.andi(valid, arith.cmpi(arith.CmpIPredicate.ult, base, length))
    remaining = arith.subi(length, arith.select(ok, base, length))
    run_ty = T.ThreadRun(recv.ty.elem, count, False)
    return Val(T.OptionTy(run_ty), OptionVal(ok, Val(run_ty, (recv, base, arith.minui(remaining, _i64(count))))))


# The runs of grid_stride_runs32 ----------------------------------------------------------------------------
@device_method(T.GridRuns, "next_run")
def _next_run(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    """`runs.next_run()`: this thread's next run (None once it starts past the slice's end)."""
    if args:
        raise _no_grid_runs_method(loc, name, recv.ty)
    handle, cell, period, valid = recv.v
    run = load_cell(cell).v
    store_cell(cell, Val(T.PRIMITIVES["u64"], arith.addi(run, period)))
    return _run_at(handle, run, recv.ty.count, valid)


@device_method(T.GridRuns, OTHER)
def _not_a_grid_runs_method(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
                            loc: Any, expected: T.Ty | None) -> Val:
    raise _no_grid_runs_method(loc, name, recv.ty)


def _no_grid_runs_method(loc: Any, name: str, ty: T.Ty) -> Exception:
    return err(loc, f"no method named `{name}` found for `{ty}` (it has `next_run()`)")


# A run or tile: len / is_clipped / at(k) / at_const::<I>() (lengths and indices are u32) ---------------------
@device_method(T.ThreadRun, "len", "is_clipped")
def _length(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
            expected: T.Ty | None) -> Val:
    """`len()`, a `u32` as every index of the `*32` views; `is_clipped()`, a tail run cut short by the end of
    the slice."""
    if args:
        raise _no_run_method(loc, name, recv.ty)
    length = recv.v[2]
    if name == "len":
        u32 = T.PRIMITIVES["u32"]
        return Val(u32, arith.trunci(u32.mlir(), length))
    return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.ult, length, _i64(recv.ty.count)))


@device_method(T.ThreadRun, "at")
def _at(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
        expected: T.Ty | None) -> Val:
    """`at(k)`: the slot of element k, None past the run's length."""
    if len(args) != 1:
        raise _no_run_method(loc, name, recv.ty)
    handle, base, length = recv.v
    ref_ty = T.ElemRef(recv.ty.elem)
    u32 = T.PRIMITIVES["u32"]
    k = arith.extui(ir.IntegerType.get_signless(64), em.coerce(em.expr(args[0], u32), u32, args[0].loc).v)
    ok = arith.cmpi(arith.CmpIPredicate.ult, k, length)
    at = arith.addi(base, arith.select(ok, k, _i64(0)))  # a None keeps its (unused) address in the run
    ref = simt.GetUncheckedMutOp.build(handle.v, arith.index_cast(ir.IndexType.get(), at), results=[ref_ty.mlir()])
    return Val(T.OptionTy(ref_ty), OptionVal(ok, Val(ref_ty, ref)))


@device_method(T.ThreadRun, "at_const")
def _at_const(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    """`at_const::<I>()` of a whole tile: the slot of element I, checked at compile time."""
    if len(generics) != 1 or args:
        raise _no_run_method(loc, name, recv.ty)
    ty: T.ThreadRun = recv.ty
    handle, base, _ = recv.v
    if not ty.whole:
        raise err(loc, "`at_const` needs a whole tile (`tile_thread32`); a run from `thread_run32` may be "
                       "clipped: use `at(k)`")
    k = em.const_arg(generics[0])
    if not 0 <= k < ty.count:
        raise err(loc, f"index {k} is out of bounds for a tile of {ty.count} elements")
    ref_ty = T.ElemRef(ty.elem)
    at = arith.index_cast(ir.IndexType.get(), arith.addi(base, _i64(k)))
    return Val(ref_ty, simt.GetUncheckedMutOp.build(handle.v, at, results=[ref_ty.mlir()]))


@device_method(T.ThreadRun, OTHER)
def _not_a_run_method(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                      expected: T.Ty | None) -> Val:
    raise _no_run_method(loc, name, recv.ty)


def _no_run_method(loc: Any, name: str, ty: T.Ty) -> Exception:
    return err(loc, f"no method named `{name}` found for `{ty}`")
