"""cuda_device's cooperative-groups reductions and scans: `warp_reduce::<T, Op, _>(&tile, v)`,
`warp_scan::<T, Op, _>(&tile, v)` (inclusive) over a `WarpTile<N>`, and `block_reduce::<T, Op, _>(&block, v,
&raw mut SMEM)`, `block_scan::<T, Op, _>(&block, v, &raw mut SMEM)` over a `ThreadBlock`, with the combiners
`ops::{Sum, Min, Max}` on u32, i32 and f32 and `ops::{BitAnd, BitOr, BitXor}` on u32, built from shuffles,
a shared array and block barriers.

Partial warps: the lanes of a warp that the launch does not have (the last warp of a block whose size is not
a multiple of 32) take no part. A tile's member mask is its lanes that exist, and they are a prefix of the
tile, so a reduction folds lane r + s into lane r only when r + s exists (a shuffle-down tree) and then
broadcasts rank 0's total; a scan reads only lanes below it (shuffle up), which exist whenever it does.

Block collectives take the caller's `SharedArray<T, NUM_WARPS>` as scratch (NUM_WARPS >= the block's warps,
checked at run time: a trap otherwise). One barrier: each warp's last lane publishes its warp's total, the
block synchronises, and every warp then reads the totals it needs and folds them itself (all of them for a
reduction, those of the warps before it for a scan), so no second barrier is needed. As in cuda-oxide, a
second call on the same scratch needs a `block.sync()` between the two (the emulator reports the race).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mlir import ir
from mlir.dialects import arith, llvm, scf

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.cooperative import GroupTy, block_size, lane, linear_tid, tile_mask
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

_P = arith.CmpIPredicate
_TYPES = ("u32", "i32", "f32")
_BITWISE = ("BitAnd", "BitOr", "BitXor")
_OPS = ("Sum", "Min", "Max", *_BITWISE)
_WARP = 32


def _i32(value: int) -> ir.Value:
    t = ir.IntegerType.get_signless(32)
    return arith.constant(t, ir.IntegerAttr.get(t, value))


def _index(value: ir.Value) -> ir.Value:
    return arith.index_cast(ir.IndexType.get(), value)


@dataclass(frozen=True)
class Combiner:
    """A `ReduceOp<T>` of cuda_device: `op` (Sum, Min, ...) on the value type `ty` (u32, i32 or f32)."""

    op: str
    ty: T.Ty

    def identity(self) -> ir.Value:
        """The value that leaves every other unchanged under `combine`."""
        if isinstance(self.ty, T.Float):
            value = {"Sum": 0.0, "Min": float("inf"), "Max": float("-inf")}[self.op]
            return arith.constant(ir.F32Type.get(), ir.FloatAttr.get(ir.F32Type.get(), value))
        signed = self.ty.signed
        extremes = {"Min": (1 << 31) - 1 if signed else -1, "Max": -(1 << 31) if signed else 0}
        return _i32(extremes.get(self.op, -1 if self.op == "BitAnd" else 0))

    def combine(self, a: ir.Value, b: ir.Value) -> ir.Value:
        """a op b: wrapping sums; float Min/Max keep `a` when a < b (a > b) is true, as cuda_device does."""
        if isinstance(self.ty, T.Float):
            if self.op == "Sum":
                return arith.addf(a, b)
            better = arith.cmpf(arith.CmpFPredicate.OLT if self.op == "Min" else arith.CmpFPredicate.OGT, a, b)
            return arith.select(better, a, b)
        signed = self.ty.signed
        table: dict[str, Callable[[ir.Value, ir.Value], ir.Value]] = {
            "Sum": arith.addi, "Min": arith.minsi if signed else arith.minui,
            "Max": arith.maxsi if signed else arith.maxui, "BitAnd": arith.andi, "BitOr": arith.ori,
            "BitXor": arith.xori}
        return table[self.op](a, b)


# Warp-level building blocks --------------------------------------------------------------------------------
def _existing_lanes() -> ir.Value:
    """The lanes of this thread's warp that the launch has (warps are cut from the linear thread id)."""
    live = arith.minui(arith.subi(block_size(), arith.andi(linear_tid(), _i32(~(_WARP - 1)))), _i32(_WARP))
    partial = arith.subi(arith.shli(_i32(1), arith.minui(live, _i32(_WARP - 1))), _i32(1))
    return arith.select(arith.cmpi(_P.uge, live, _i32(_WARP)), _i32(-1), partial)


def _shuffle(mask: ir.Value, value: ir.Value, offset: int, kind: str, n: int) -> ir.Value:
    width = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), n)
    return simt.ShuffleOp.build(mask, value, _i32(offset), kind=kind, width=width)


def tile_reduce(comb: Combiner, value: ir.Value, n: int) -> ir.Value:
    """The fold of `value` over this thread's tile of `n` lanes, in every lane of the tile."""
    if n == 1:
        return value
    mask = arith.andi(tile_mask(n), _existing_lanes())
    rank, members = arith.andi(lane(), _i32(n - 1)), llvm.intr_ctpop(mask)
    step = n // 2
    while step:
        other = _shuffle(mask, value, step, "down", n)
        partner_exists = arith.cmpi(_P.ult, arith.addi(rank, _i32(step)), members)
        value = arith.select(partner_exists, comb.combine(value, other), value)
        step //= 2
    return _shuffle(mask, value, 0, "idx", n)


def tile_scan(comb: Combiner, value: ir.Value, n: int) -> ir.Value:
    """The inclusive scan of `value` over this thread's tile of `n` lanes (rank r: the fold of ranks 0..=r)."""
    mask = arith.andi(tile_mask(n), _existing_lanes()) if n > 1 else None
    rank = arith.andi(lane(), _i32(n - 1))
    step = 1
    while step < n:
        other = _shuffle(mask, value, step, "up", n)
        value = arith.select(arith.cmpi(_P.uge, rank, _i32(step)), comb.combine(value, other), value)
        step *= 2
    return value


# Block-level building blocks -------------------------------------------------------------------------------
def _store_if(cond: ir.Value, smem: ir.Value, slot: ir.Value, value: ir.Value) -> None:
    branch = scf.IfOp(cond)
    with ir.InsertionPoint(branch.then_block):
        simt.SharedStoreOp.build(smem, _index(slot), value)
        scf.YieldOp([])


def _load_or_identity(comb: Combiner, cond: ir.Value, smem: ir.Value, slot: ir.Value) -> ir.Value:
    """smem[slot] where `cond` holds, the identity elsewhere (never reading a slot no warp wrote)."""
    branch = scf.IfOp(cond, [comb.ty.mlir()], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.YieldOp([simt.SharedLoadOp.build(smem, _index(slot))])
    with ir.InsertionPoint(branch.else_block):
        scf.YieldOp([comb.identity()])
    return branch.result


def block_collective(em: Emitter, comb: Combiner, value: ir.Value, smem: ir.Value, slots: int, scan: bool) -> ir.Value:
    """`block_reduce` (scan=False) or `block_scan` of `value`, with the shared array `smem` of `slots`
    elements as scratch."""
    warps = arith.divui(arith.addi(block_size(), _i32(_WARP - 1)), _i32(_WARP))
    em.trap_unless(arith.cmpi(_P.ule, warps, _i32(slots)))
    warp_id, me = arith.divui(linear_tid(), _i32(_WARP)), lane()
    own = tile_scan(comb, value, _WARP) if scan else tile_reduce(comb, value, _WARP)
    # The warp's last existing lane holds its total in both cases.
    last = arith.subi(llvm.intr_ctpop(_existing_lanes()), _i32(1))
    _store_if(arith.cmpi(_P.eq, me, last), smem, warp_id, own)
    simt.SyncThreadsOp.build()
    needed = warp_id if scan else warps  # a scan folds the warps before this one, a reduction all of them
    total = tile_reduce(comb, _load_or_identity(comb, arith.cmpi(_P.ult, me, needed), smem, me), _WARP)
    return comb.combine(total, own) if scan else total


# The device functions --------------------------------------------------------------------------------------
def _generic_name(g: Any) -> str:
    return g.name.split("::")[-1] if isinstance(g, ast.PathTy) else ""


def _combiner(em: Emitter, name: str, generics: list[Any], loc: Any) -> Combiner:
    if len(generics) not in (2, 3):
        raise err(loc, f"`{name}` needs its value type and combiner: `{name}::<u32, Sum, _>(...)`")
    ty = em.resolve_type(generics[0])
    if ty not in [T.PRIMITIVES[t] for t in _TYPES]:
        raise err(loc, f"`{name}` reduces u32, i32 or f32 values, not `{ty}`")
    op = _generic_name(generics[1])
    if op not in _OPS:
        raise err(loc, f"`{name}`'s combiner is one of cooperative_groups::ops::{{{', '.join(_OPS)}}}, not "
                       f"`{op or generics[1]}`")
    if op in _BITWISE and ty != T.PRIMITIVES["u32"]:
        raise err(loc, f"`{op}` combines u32 values only, not `{ty}`")
    return Combiner(op, ty)


def _check_const(em: Emitter, name: str, generics: list[Any], actual: int, what: str, loc: Any) -> None:
    """The third generic argument, when written as a number, must match the group (`_` lets Rust infer it)."""
    if len(generics) == 3 and _generic_name(generics[2]) != "_" and em.const_arg(generics[2]) != actual:
        raise err(loc, f"`{name}`'s third generic argument is the {what}, {actual} here, not "
                       f"{em.const_arg(generics[2])}; write `_`")


def _group(em: Emitter, name: str, a: ast.Expr, tile: bool) -> GroupTy:
    group = em.expr(a).ty
    if not isinstance(group, GroupTy) or bool(group.size) != tile:
        want = ("a `&WarpTile<N>` (`&this_thread_block().tiled_partition::<32>()`)" if tile
                else "a `&ThreadBlock` (`&this_thread_block()`)")
        raise err(a.loc, f"`{name}` takes {want}, not `{group}`")
    return group


@device_fn("warp_reduce", "warp_scan")
def _warp_collective(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                     expected: T.Ty | None, loc: Any) -> Val:
    name = segs[-1]
    if len(args) != 2:
        raise err(loc, f"`{name}::<T, Op, _>(&tile, value)` takes 2 arguments, got {len(args)}")
    comb = _combiner(em, name, generics, loc)
    n = _group(em, name, args[0], tile=True).size
    _check_const(em, name, generics, n, "tile size N", loc)
    value = em.coerce(em.expr(args[1], comb.ty), comb.ty, args[1].loc).v
    result = tile_scan(comb, value, n) if name == "warp_scan" else tile_reduce(comb, value, n)
    return Val(comb.ty, result)


@device_fn("block_reduce", "block_scan")
def _block_collective(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                      expected: T.Ty | None, loc: Any) -> Val:
    name = segs[-1]
    if len(args) != 3:
        raise err(loc, f"`{name}::<T, Op, _>(&block, value, &raw mut SMEM)` takes 3 arguments, got {len(args)}")
    comb = _combiner(em, name, generics, loc)
    _group(em, name, args[0], tile=False)
    value = em.coerce(em.expr(args[1], comb.ty), comb.ty, args[1].loc).v
    smem = em.expr(args[2])
    if not isinstance(smem.ty, T.Shared):
        raise err(args[2].loc, f"`{name}` takes its scratch as `&raw mut SMEM` of a `static mut SMEM: "
                               f"SharedArray<{comb.ty}, NUM_WARPS>`, not `{smem.ty}`")
    if smem.ty.elem != comb.ty or not 1 <= smem.ty.length <= _WARP:
        raise err(args[2].loc, f"`{name}::<{comb.ty}, ..>` needs a `SharedArray<{comb.ty}, NUM_WARPS>` with NUM_WARPS "
                               f"the block's warps (1 to 32), not `{smem.ty}`")
    _check_const(em, name, generics, smem.ty.length, "scratch length NUM_WARPS", loc)
    return Val(comb.ty, block_collective(em, comb, value, smem.v, smem.ty.length, name == "block_scan"))
