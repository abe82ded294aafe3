"""Warp-level calls: shuffles (`shuffle_xor(v, 16)`, `shfl_down_sync(mask, v, d)`, typed `_f32`/`_u64`/...
forms), votes (`all`/`any`/`ballot`, `_sync` with a mask), `match_any_sync`/`match_all_sync`,
`active_mask()`, `redux_sync_*`, `elect_sync`/`is_elected_sync`, and the `warp::reduce_*_f32/f64`
butterflies."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.calls.scalars import full_mask, i32, u32, u32_arg
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

_SHUFFLES = {"shuffle": "idx", "shuffle_xor": "xor", "shuffle_down": "down", "shuffle_up": "up",
             "shfl": "idx", "shfl_xor": "xor", "shfl_down": "down", "shfl_up": "up"}
_SHUFFLE_TYPES = {"": "u32", "_f32": "f32", "_u64": "u64", "_f64": "f64", "_i32": "i32", "_i64": "i64"}
# Each shuffle name (without `_sync`) -> (its kind, its value type).
_SHUFFLE_NAMES = {prefix + suffix: (kind, type_name) for prefix, kind in _SHUFFLES.items()
                  for suffix, type_name in _SHUFFLE_TYPES.items()}
_REDUX = {"add": "add", "min_i32": "min", "max_i32": "max", "min_u32": "umin", "max_u32": "umax", "min": "umin",
          "max": "umax", "and": "and", "or": "or", "xor": "xor"}
_REDUCE = [f"reduce_{op}_{ty}" for op in ("sum", "max", "min") for ty in ("f32", "f64")]


def _width_attr() -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 32)


def _unsynced(name: str) -> tuple[str, bool]:
    """(the name without `_sync`, whether it had it)."""
    return (name[: -len("_sync")], True) if name.endswith("_sync") else (name, False)


@device_fn(*_SHUFFLE_NAMES, *(f"{name}_sync" for name in _SHUFFLE_NAMES))
def _shuffle(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
             loc: Any) -> Val:
    name = segs[-1]
    base, sync = _unsynced(name)
    kind, type_name = _SHUFFLE_NAMES[base]
    want = 3 if sync else 2
    if len(args) != want:
        raise err(loc, f"`{name}` takes {want} arguments")
    mask = u32_arg(em, args[0]) if sync else full_mask()
    value_ty = T.PRIMITIVES[type_name]
    value = em.coerce(em.expr(args[-2], value_ty), value_ty, args[-2].loc)
    offset = u32_arg(em, args[-1])
    return Val(value_ty, simt.ShuffleOp.build(mask, value.v, offset, kind=kind, width=_width_attr()))


@device_fn("all", "any", "ballot", "all_sync", "any_sync", "ballot_sync")
def _vote(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val:
    name = segs[-1]
    base, sync = _unsynced(name)
    want = 2 if sync else 1
    if len(args) != want:
        raise err(loc, f"`{name}` takes {want} argument(s)")
    mask = u32_arg(em, args[0]) if sync else full_mask()
    pred = em.coerce(em.expr(args[-1], T.BOOL), T.BOOL, args[-1].loc).v
    if base == "ballot":
        return u32(simt.BallotOp.build(mask, pred))
    return Val(T.BOOL, simt.VoteOp.build(mask, pred, kind=base))


@device_fn("match_any_sync", "match_all_sync", "match_any_i64_sync", "match_all_i64_sync")
def _match(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
           loc: Any) -> Val:
    base, _ = _unsynced(segs[-1])
    mask = u32_arg(em, args[0])
    ty = T.PRIMITIVES["u64" if base.endswith("_i64") else "u32"]
    value = em.coerce(em.expr(args[1], ty), ty, args[1].loc).v
    if base.startswith("match_any"):
        return u32(simt.MatchAnyOp.build(mask, value))
    lanes, _ = simt.MatchAllOp.build(mask, value)
    return u32(lanes)  # cuda-oxide's match_all_sync returns the mask (0 when the values differ)


@device_fn("active_mask", when=lambda em, segs, generics, args, *_: not args)
def _active_mask(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                 loc: Any) -> Val:
    return u32(simt.ActiveMaskOp.build())


@device_fn(*(f"redux_sync_{op}" for op in _REDUX))
def _redux(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
           loc: Any) -> Val:
    name = segs[-1]
    kind = _REDUX[name[len("redux_sync_"):]]
    if len(args) != 2:
        raise err(loc, f"unknown warp reduction `{name}`")
    ty = T.PRIMITIVES["i32" if name.endswith("_i32") else "u32"]
    value = em.coerce(em.expr(args[1], ty), ty, args[1].loc).v
    return Val(ty, simt.ReduxOp.build(u32_arg(em, args[0]), value, kind=kind))


@device_fn("elect_sync", when=lambda em, segs, generics, args, *_: len(args) == 1)
def _elect(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
           loc: Any) -> Val:
    leader, elected = simt.ElectOp.build(u32_arg(em, args[0]))
    return Val(T.Tuple((T.PRIMITIVES["u32"], T.BOOL)), [u32(leader), Val(T.BOOL, elected)])


@device_fn("is_elected_sync", when=lambda em, segs, generics, args, *_: len(args) == 1)
def _is_elected(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    _, elected = simt.ElectOp.build(u32_arg(em, args[0]))
    return Val(T.BOOL, elected)


@device_fn(*_REDUCE, when=lambda em, segs, generics, args, *_: len(args) == 1)
def _reduce(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
            loc: Any) -> Val:
    """`warp::reduce_sum_f32(v)` & co: a butterfly of five xor shuffles over the full warp."""
    name = segs[-1]
    ty = T.PRIMITIVES[name[-3:]]
    value = em.coerce(em.expr(args[0], ty), ty, args[0].loc).v
    full = arith.constant(i32(), ir.IntegerAttr.get(i32(), -1))
    combine = {"sum": arith.addf, "max": arith.maxnumf, "min": arith.minnumf}[name.split("_")[1]]
    for offset in (16, 8, 4, 2, 1):
        lane = arith.constant(i32(), ir.IntegerAttr.get(i32(), offset))
        value = combine(value, simt.ShuffleOp.build(full, value, lane, kind="xor", width=_width_attr()))
    return Val(ty, value)
