"""cuda_device's `cooperative_groups::coalesced_threads()`: a `CoalescedThreads` group of the lanes of this
warp that are active at the call (PTX `activemask`), with the group queries (`size`, `thread_rank`,
`raw_mask`), `sync`, and the warp collectives (`ballot`, `any`, `all`, `shfl*`, `match_any`, `match_all`)
under that mask.

As in cuda-oxide, `shfl(v, src_rank)` takes a group rank (the lane holding the src_rank-th set bit of the
mask; a rank past the group reads this lane's own value), while `shfl_xor`, `shfl_up` and `shfl_down` move
by physical lanes and read this lane's own value when the source lane is not in the group. `ballot` and
`match_any` return physical lane masks restricted to the group.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, llvm

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.cooperative import lane
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

_U32 = T.PRIMITIVES["u32"]
_P = arith.CmpIPredicate


@dataclass(frozen=True)
class CoalescedTy(T.Ty):
    """`CoalescedThreads`: its value is the member mask captured at `coalesced_threads()`."""

    def mlir(self) -> ir.Type:
        return ir.IntegerType.get_signless(32)

    def rust(self) -> str:
        return "CoalescedThreads"


def _i32(value: int) -> ir.Value:
    t = ir.IntegerType.get_signless(32)
    return arith.constant(t, ir.IntegerAttr.get(t, value))


def _has_lane(mask: ir.Value, source: ir.Value) -> ir.Value:
    """Whether lane `source` (0..32) is in `mask`."""
    return arith.cmpi(_P.ne, arith.andi(arith.shrui(mask, source), _i32(1)), _i32(0))


@device_fn("coalesced_threads", when=lambda em, segs, generics, args, *_: not args)
def _coalesced_threads(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                       expected: T.Ty | None, loc: Any) -> Val:
    return Val(CoalescedTy(), simt.ActiveMaskOp.build())


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


@device_method(CoalescedTy, "size", "thread_rank", "raw_mask", "sync", when=_no_args)
def _queries(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    mask = recv.v
    if name == "sync":
        simt.WarpSyncOp.build(mask)
        return Val(T.UNIT, None)
    if name == "raw_mask":
        return Val(_U32, mask)
    if name == "size":
        return Val(_U32, llvm.intr_ctpop(mask))
    below = simt.SpecialRegOp.build(reg="lanemask_lt", results=[ir.IntegerType.get_signless(32)])
    return Val(_U32, llvm.intr_ctpop(arith.andi(mask, below)))


def _predicate(em: Emitter, a: ast.Expr) -> ir.Value:
    return em.coerce(em.expr(a, T.BOOL), T.BOOL, a.loc).v


@device_method(CoalescedTy, "ballot", "any", "all", when=lambda em, recv, name, args, *_: len(args) == 1)
def _votes(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
           expected: T.Ty | None) -> Val:
    pred = _predicate(em, args[0])
    if name == "ballot":
        return Val(_U32, arith.andi(simt.BallotOp.build(recv.v, pred), recv.v))
    return Val(T.BOOL, simt.VoteOp.build(recv.v, pred, kind=name))


def _rank_lane(mask: ir.Value, rank: ir.Value) -> ir.Value:
    """The lane of the group's rank-`rank` thread (the rank-th set bit of `mask`), or this lane when the group
    has no such rank: the largest p with popc(mask below p) <= rank, found in five halving steps."""
    found = _i32(0)
    for step in (16, 8, 4, 2, 1):
        candidate = arith.addi(found, _i32(step))
        below = llvm.intr_ctpop(arith.andi(mask, arith.subi(arith.shli(_i32(1), candidate), _i32(1))))
        found = arith.select(arith.cmpi(_P.ule, below, rank), candidate, found)
    return arith.select(arith.cmpi(_P.ult, rank, llvm.intr_ctpop(mask)), found, lane())


def _offset_or_self(mask: ir.Value, kind: str, offset: ir.Value) -> ir.Value:
    """`offset` when the lane it names is in the group, else 0 (which makes the shuffle read this lane)."""
    me, distance = lane(), arith.andi(offset, _i32(31))
    if kind == "xor":
        ok = _has_lane(mask, arith.xori(me, distance))
    elif kind == "down":
        in_warp = arith.cmpi(_P.ule, distance, arith.subi(_i32(31), me))
        ok = arith.andi(in_warp, _has_lane(mask, arith.minui(arith.addi(me, distance), _i32(31))))
    else:
        in_warp = arith.cmpi(_P.ule, distance, me)
        ok = arith.andi(in_warp, _has_lane(mask, arith.subi(me, arith.minui(distance, me))))
    return arith.select(ok, offset, _i32(0))


_SHFL = {"shfl": "idx", "shfl_xor": "xor", "shfl_down": "down", "shfl_up": "up"}
_SHFL_TYPES = {"": "u32", "_f32": "f32", "_u32": "u32", "_i32": "i32", "_u64": "u64", "_i64": "i64", "_f64": "f64"}


@device_method(CoalescedTy, *(base + suffix for base in _SHFL for suffix in _SHFL_TYPES),
               when=lambda em, recv, name, args, *_: len(args) == 2)
def _shuffles(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    base = next(b for b in sorted(_SHFL, key=len, reverse=True) if name.startswith(b))
    suffix = name[len(base):]
    ty = T.PRIMITIVES[_SHFL_TYPES[suffix]]
    value = em.expr(args[0], ty)
    if not suffix and value.ty == T.PRIMITIVES["i32"]:
        ty = value.ty  # a bare `shfl` moves any 32-bit integer
    value = em.coerce(value, ty, args[0].loc)
    offset = em.coerce(em.expr(args[1], _U32), _U32, args[1].loc).v
    kind = _SHFL[base]
    source = _rank_lane(recv.v, offset) if kind == "idx" else _offset_or_self(recv.v, kind, offset)
    return Val(ty, simt.ShuffleOp.build(recv.v, value.v, source, kind=kind))


_MATCH_TYPES = {"": ("u32", "i32"), "_i64": ("u64", "i64")}


@device_method(CoalescedTy, "match_any", "match_any_i64", "match_all", "match_all_i64",
               when=lambda em, recv, name, args, *_: len(args) == 1)
def _matches(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    widths = _MATCH_TYPES["_i64" if name.endswith("_i64") else ""]
    value = em.expr(args[0], T.PRIMITIVES[widths[0]])
    if value.ty not in [T.PRIMITIVES[t] for t in widths]:
        raise err(args[0].loc, f"`{name}` compares {' or '.join(widths)} values, not `{value.ty}`")
    if name.startswith("match_any"):
        return Val(_U32, arith.andi(simt.MatchAnyOp.build(recv.v, value.v), recv.v))
    lanes, _ = simt.MatchAllOp.build(recv.v, value.v)
    return Val(_U32, lanes)
