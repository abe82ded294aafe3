"""cuda_device's cooperative groups within a block: `this_thread_block()` (a `ThreadBlock`) and its
`tiled_partition::<N>()` (a `WarpTile<N>`, N in 1, 2, 4, 8, 16, 32), with the group queries (`thread_rank`,
`size`, `meta_group_rank`, ...), `sync`, and the tile collectives (`ballot`, `any`, `all`, `shfl*`,
`match_any`) over the tile's lanes only.

A tile is N consecutive lanes of a warp (warps are cut from the linear thread id, so the tile of a thread
is lane / N); its member mask is those N lanes, and its shuffles use segments of width N. Results that are
lane masks (`ballot`, `match_any`) are tile-relative: bit i is the tile's rank-i thread, as in cuda-oxide.
The grid and cluster groups (`this_grid()`, `this_cluster()`, `grid::sync()`) are in grid_groups.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import Val

_U32 = T.PRIMITIVES["u32"]
_P = arith.CmpIPredicate


@dataclass(frozen=True)
class GroupTy(T.Ty):
    """A cooperative group handle: `ThreadBlock` (size 0 here) or `WarpTile<size>`; it has no run-time value."""

    size: int = 0

    def rust(self) -> str:
        return f"WarpTile<{self.size}>" if self.size else "ThreadBlock"


def _i32(value: int) -> ir.Value:
    t = ir.IntegerType.get_signless(32)
    return arith.constant(t, ir.IntegerAttr.get(t, value))


def block_size() -> ir.Value:
    """Threads per block (blockDim.x * y * z)."""
    dims = [simt.BlockDimOp.build(dim=simt.DimAttr.get(a)) for a in "xyz"]
    return arith.muli(arith.muli(dims[0], dims[1]), dims[2])


def linear_tid() -> ir.Value:
    """This thread's linear index in its block, x fastest."""
    dims = {a: simt.BlockDimOp.build(dim=simt.DimAttr.get(a)) for a in "xy"}
    tids = {a: simt.ThreadIdOp.build(dim=simt.DimAttr.get(a)) for a in "xyz"}
    return arith.addi(tids["x"], arith.muli(dims["x"], arith.addi(tids["y"], arith.muli(dims["y"], tids["z"]))))


def lane() -> ir.Value:
    """This thread's lane in its warp."""
    return simt.SpecialRegOp.build(reg="laneid", results=[ir.IntegerType.get_signless(32)])


def _tile_base(n: int) -> ir.Value:
    """The lane number of this tile's rank-0 thread."""
    return arith.andi(lane(), _i32(~(n - 1)))


def tile_mask(n: int) -> ir.Value:
    """The member mask of this thread's tile."""
    if n == 32:
        return _i32(-1)
    return arith.shli(_i32((1 << n) - 1), _tile_base(n))


def _relative(mask: ir.Value, n: int) -> ir.Value:
    """A warp lane mask as a tile-relative one."""
    if n == 32:
        return mask
    return arith.andi(arith.shrui(mask, _tile_base(n)), _i32((1 << n) - 1))


@device_fn("this_thread_block", when=lambda em, segs, generics, args, *_: not args)
def _this_thread_block(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                       loc: Any) -> Val:
    return Val(GroupTy(), None)


@device_method(GroupTy, "tiled_partition")
def _tiled_partition(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                     expected: T.Ty | None) -> Val:
    group = recv.ty
    if group.size or args or len(generics) != 1:
        raise err(loc, "`tiled_partition::<N>()` partitions a `ThreadBlock`; N is a const generic")
    n = em.const_arg(generics[0])
    if n not in (1, 2, 4, 8, 16, 32):
        raise err(loc, f"`tiled_partition::<{n}>`: a warp tile has 1, 2, 4, 8, 16 or 32 threads")
    return Val(GroupTy(n), None)


@device_method(GroupTy, "thread_rank", "size", "num_threads", "meta_group_rank", "meta_group_size", "sync",
               when=lambda em, recv, name, args, *_: not args)
def _queries(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    group = recv.ty
    n = group.size
    if name == "sync":
        if n:
            simt.WarpSyncOp.build(tile_mask(n))
        else:
            simt.SyncThreadsOp.build()
        return Val(T.UNIT, None)
    if name == "thread_rank":
        value = arith.andi(lane(), _i32(n - 1)) if n else linear_tid()
    elif name in ("size", "num_threads"):
        value = _i32(n) if n else block_size()
    elif not n:
        return None
    elif name == "meta_group_rank":
        value = arith.divui(linear_tid(), _i32(n))
    else:
        value = arith.divui(arith.addi(block_size(), _i32(n - 1)), _i32(n))
    return Val(_U32, value)


def _tile_call(arity: int) -> Callable[..., bool]:
    """The guard of a warp-tile collective taking `arity` arguments; an unpartitioned group is always the
    handler's (it reports that the block needs partitioning first)."""
    return lambda em, recv, name, args, *_: len(args) == arity or not recv.ty.size


def _tile(recv: Val, loc: Any, name: str) -> int:
    group = recv.ty
    if not group.size:
        raise err(loc, f"`{name}` is a warp-tile collective; partition the block first: "
                       "`this_thread_block().tiled_partition::<32>()`")
    return group.size


@device_method(GroupTy, "ballot", "any", "all", when=_tile_call(1))
def _votes(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
           expected: T.Ty | None) -> Val:
    n = _tile(recv, loc, name)
    pred = em.coerce(em.expr(args[0], T.BOOL), T.BOOL, args[0].loc).v
    mask = tile_mask(n)
    if name == "ballot":
        return Val(_U32, _relative(simt.BallotOp.build(mask, pred), n))
    return Val(T.BOOL, simt.VoteOp.build(mask, pred, kind=name))


_SHFL = {"shfl": "idx", "shfl_xor": "xor", "shfl_down": "down", "shfl_up": "up"}
_SHFL_TYPES = {"": None, "_f32": "f32", "_u32": "u32", "_i32": "i32", "_u64": "u64", "_i64": "i64", "_f64": "f64"}


@device_method(GroupTy, *(base + suffix for base in _SHFL for suffix in _SHFL_TYPES), when=_tile_call(2))
def _shuffles(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    n = _tile(recv, loc, name)
    base = next(b for b in sorted(_SHFL, key=len, reverse=True) if name.startswith(b))
    type_name = _SHFL_TYPES[name[len(base):]]
    value = em.expr(args[0], T.PRIMITIVES[type_name] if type_name else None)
    if type_name:
        value = em.coerce(value, T.PRIMITIVES[type_name], args[0].loc)
    if value.ty not in [T.PRIMITIVES[t] for t in ("u32", "i32", "f32", "u64", "i64", "f64")]:
        raise err(args[0].loc, f"a tile shuffle moves a 32- or 64-bit integer or float, not `{value.ty}`")
    offset = em.coerce(em.expr(args[1], _U32), _U32, args[1].loc).v
    if base == "shfl_xor" and n < 32:
        # A tile's butterfly stays in the tile (cuda_device: `shfl_xor(v, 16)` on a 16-lane tile is the lane's own
        # value); PTX's would read an earlier tile's lane, so the lane mask keeps only the tile's bits.
        offset = arith.andi(offset, _i32(n - 1))
    width = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), n)
    return Val(value.ty, simt.ShuffleOp.build(tile_mask(n), value.v, offset, kind=_SHFL[base], width=width))


@device_method(GroupTy, "match_any", when=_tile_call(1))
def _match_any(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    n = _tile(recv, loc, name)
    value = em.expr(args[0], _U32)
    if value.ty not in (_U32, T.PRIMITIVES["i32"]):
        raise err(args[0].loc, f"`match_any` on a tile compares u32 or i32 values, not `{value.ty}`")
    return Val(_U32, _relative(simt.MatchAnyOp.build(tile_mask(n), value.v), n))
