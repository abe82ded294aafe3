"""TMA device functions (cuda_device::tma, sm_90): bulk tensor copies between global memory, described by a
tensor map, and shared memory, and their bulk groups, emitted as simt TMA ops.

    cp_async_bulk_tensor_<d>d_g2s(dst: *mut u8, tensor_map: *const TmaDescriptor, c0: i32, .., bar: *mut Barrier)
    cp_async_bulk_tensor_2d_g2s_multicast(dst, tensor_map, c0, c1, bar, cta_mask: u16)
    cp_async_bulk_tensor_<d>d_s2g(src: *const u8, tensor_map: *const TmaDescriptor, c0: i32, ..)
    cp_async_bulk_commit_group()
    cp_async_bulk_wait_group(n) / cp_async_bulk_wait_group_read(n)       n a constant
    prefetch_tensormap(tensor_map)                                       (oxide's; cuda-oxide has none)

The copies are `unsafe` (raw shared-memory pointers, a barrier the caller must have initialised), as in
cuda-oxide; the group functions are safe. Coordinates are innermost first, as PTX takes them.
"""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.casts import shared_as_pointer
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.device_types import TensorMapTy
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

_SPACE_NAMES = {0: "generic", 1: "global", 3: "shared", 4: "constant"}
# name -> (rank, direction, multicast)
_COPIES: dict[str, tuple[int, str, bool]] = {
    f"cp_async_bulk_tensor_{rank}d_{direction}": (rank, direction, False)
    for rank in range(1, 6) for direction in ("g2s", "s2g")
}
_COPIES["cp_async_bulk_tensor_2d_g2s_multicast"] = (2, "g2s", True)
_WAITS = {"cp_async_bulk_wait_group": "complete", "cp_async_bulk_wait_group_read": "read"}


def _shared_pointer(em: Emitter, a: ast.Expr, name: str, what: str) -> ir.Value:
    """A raw pointer into shared memory (a SharedArray's or a Barrier's address)."""
    value = em.expr(a, T.Ptr(T.PRIMITIVES["u8"], True, 3))
    if isinstance(value.ty, T.Shared):
        value = shared_as_pointer(value)
    if not isinstance(value.ty, T.Ptr):
        raise err(a.loc, f"`{name}` takes {what} as a raw pointer into shared memory, not `{value.ty}`")
    if value.ty.space != 3:
        where = _SPACE_NAMES.get(value.ty.space, f"address space {value.ty.space}")
        raise err(a.loc, f"`{name}` takes {what} in shared memory; this is a {where} pointer (take the address "
                         "of a `static mut` SharedArray or Barrier)")
    return value.v


def _tensor_map(em: Emitter, a: ast.Expr, name: str) -> ir.Value:
    value = em.expr(a, TensorMapTy())
    if not isinstance(value.ty, TensorMapTy):
        raise err(a.loc, f"`{name}` takes the tensor map as a `*const TmaDescriptor` kernel parameter, not "
                         f"`{value.ty}`")
    return value.v


def _integer(em: Emitter, a: ast.Expr, rust: str) -> ir.Value:
    ty = T.PRIMITIVES[rust]
    return em.coerce(em.expr(a, ty), ty, a.loc).v


@device_fn(*_COPIES)
def _tensor_copy(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                 loc: Any) -> Val:
    """`cp_async_bulk_tensor_<d>d_g2s(dst, map, c.., bar)` -> simt.tma_load; `_s2g(src, map, c..)` -> simt.tma_store."""
    name = segs[-1]
    rank, direction, multicast = _COPIES[name]
    want = 2 + rank + (1 if direction == "g2s" else 0) + (1 if multicast else 0)
    if len(args) != want:
        raise err(loc, f"`{name}` takes {want} arguments but {len(args)} were supplied")
    em.require_unsafe(loc, f"`{name}`")
    shared_what = "the destination" if direction == "g2s" else "the source"
    smem = _shared_pointer(em, args[0], name, shared_what)
    tensor_map = _tensor_map(em, args[1], name)
    coordinates = [_integer(em, a, "i32") for a in args[2:2 + rank]]
    if direction == "s2g":
        simt.TmaStoreOp(tensor_map, smem, coordinates)
        return Val(T.UNIT, None)
    barrier = _shared_pointer(em, args[2 + rank], name, "the barrier")
    mask = _integer(em, args[3 + rank], "u16") if multicast else None
    simt.TmaLoadOp(smem, tensor_map, coordinates, barrier, mask)
    return Val(T.UNIT, None)


@device_fn("cp_async_bulk_tensor_2d_g2s_multicast_cg2")
def _multicast_cg2(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                   loc: Any) -> Val:
    """The CTA-pair form (`.cta_group::2`) is Blackwell's: refused with the chip it needs."""
    raise err(loc, "`cp_async_bulk_tensor_2d_g2s_multicast_cg2` (TMA multicast to CTA pairs, `.cta_group::2`) needs "
                   "sm_100, which oxide does not target; on Hopper use `cp_async_bulk_tensor_2d_g2s_multicast`")


@device_fn("cp_async_bulk_commit_group")
def _commit_group(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                  loc: Any) -> Val:
    if args or generics:
        raise err(loc, "`cp_async_bulk_commit_group` takes no arguments")
    simt.BulkCommitGroupOp()
    return Val(T.UNIT, None)


@device_fn(*_WAITS)
def _wait_group(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    """`cp_async_bulk_wait_group(n)`: wait until at most n bulk groups are pending (`_read`: until their sources
    have been read). n is a constant (`(n)` or `::<N>()`): the instruction encodes it."""
    name = segs[-1]
    if len(generics) == 1 and not args:
        pending = em.const_arg(generics[0])
    elif len(args) == 1 and not generics:
        pending = em.const_arg(args[0])
    else:
        raise err(loc, f"`{name}` takes the number of bulk groups that may stay pending, a constant")
    if not 0 <= pending <= simt.MAX_PENDING_GROUPS:
        raise err(loc, f"`{name}({pending})`: the number of pending groups must be 0..{simt.MAX_PENDING_GROUPS}")
    simt.BulkWaitGroupOp(pending=pending, until=_WAITS[name])
    return Val(T.UNIT, None)


@device_fn("prefetch_tensormap")
def _prefetch(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    """`prefetch_tensormap(map)`: fetch the tensor map into the cache before the first copy reads it."""
    if len(args) != 1:
        raise err(loc, f"`prefetch_tensormap` takes 1 argument but {len(args)} were supplied")
    simt.TmaPrefetchOp(_tensor_map(em, args[0], "prefetch_tensormap"))
    return Val(T.UNIT, None)
