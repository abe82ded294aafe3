"""Warp reductions over the live lanes of a partial warp: `warp::reduce_{sum,max,min}_{f32,f64}_partial(v,
live_lanes)` and `warp::live_lanes_1d()`.

`live_lanes` is the number n (1..=32) of launched lanes at the bottom of the warp. Every lane below n
takes part (the member mask is those n lanes, so no shuffle names a lane that was never launched), reads
its partner `lane + offset` clamped to n - 1 with an indexed shuffle, and folds the partner in only when
the partner really is live; lane 0 then holds the fold of lanes 0..n and broadcasts it, so every live
lane returns the same total (as the full-warp forms do).
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Val

_U32 = T.PRIMITIVES["u32"]
_P = arith.CmpIPredicate


def _i32(value: int) -> ir.Value:
    t = ir.IntegerType.get_signless(32)
    return arith.constant(t, ir.IntegerAttr.get(t, value))


@device_fn("live_lanes_1d", when=lambda em, segs, generics, args, *_: not args)
def _live_lanes(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    """min(32, threads in the block - the first linear thread id of this warp): warps are cut from the
    linear thread id, so this holds for any block shape."""
    dims = {axis: simt.BlockDimOp.build(dim=simt.DimAttr.get(axis)) for axis in "xyz"}
    tids = {axis: simt.ThreadIdOp.build(dim=simt.DimAttr.get(axis)) for axis in "xyz"}
    threads = arith.muli(arith.muli(dims["x"], dims["y"]), dims["z"])
    linear = arith.addi(tids["x"], arith.muli(dims["x"], arith.addi(tids["y"], arith.muli(dims["y"], tids["z"]))))
    warp_start = arith.andi(linear, _i32(~31))
    return Val(_U32, arith.minui(arith.subi(threads, warp_start), _i32(32)))


_COMBINE = {"sum": arith.addf, "max": arith.maxnumf, "min": arith.minnumf}


@device_fn(*(f"reduce_{op}_{ty}_partial" for op in _COMBINE for ty in ("f32", "f64")),
           when=lambda em, segs, generics, args, *_: len(args) == 2)
def _reduce_partial(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val:
    _, op, ty_name, _ = segs[-1].split("_")
    ty = T.PRIMITIVES[ty_name]
    value = em.coerce(em.expr(args[0], ty), ty, args[0].loc).v
    live = em.coerce(em.expr(args[1], _U32), _U32, args[1].loc).v
    combine = _COMBINE[op]
    full = arith.cmpi(_P.uge, live, _i32(32))
    # (1 << n) - 1 for n < 32; the full mask otherwise (a shift by 32 would be poison).
    mask = arith.select(full, _i32(-1), arith.subi(arith.shli(_i32(1), arith.minui(live, _i32(31))), _i32(1)))
    lane = simt.SpecialRegOp.build(reg="laneid", results=[ir.IntegerType.get_signless(32)])
    last = arith.subi(live, _i32(1))
    width = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 32)
    for offset in (16, 8, 4, 2, 1):
        partner = arith.addi(lane, _i32(offset))
        source = arith.minui(partner, last)
        other = simt.ShuffleOp.build(mask, value, source, kind="idx", width=width)
        value = arith.select(arith.cmpi(_P.ult, partner, live), combine(value, other), value)
    return Val(ty, simt.ShuffleOp.build(mask, value, _i32(0), kind="idx", width=width))
