"""cuda_device's `cluster` module (thread-block clusters, sm_90): this block's place in its cluster
(`cluster_ctaidX/Y/Z`, `block_rank`), the cluster's shape (`cluster_nctaidX/Y/Z`, `cluster_size`), the
cluster's place in the grid (`cluster_idx`: the linear cluster index, x fastest; `num_clusters`), the cluster
barrier (`cluster_sync`) and distributed shared memory (`map_shared_rank`, `dsmem_read_u32`: another block's
shared variable at the same offset, through `mapa` on generic addresses). A kernel's cluster shape is fixed
with `#[cluster_launch(x, y, z)]` (PTX `.reqnctapercluster`)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.casts import shared_as_pointer
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Val

_U32 = T.PRIMITIVES["u32"]
_REGISTERS = {**{f"cluster_ctaid{a.upper()}": f"cluster_ctaid_{a}" for a in "xyz"},
              **{f"cluster_nctaid{a.upper()}": f"cluster_nctaid_{a}" for a in "xyz"},
              "block_rank": "cluster_ctarank", "cluster_size": "cluster_nctarank"}


def _sreg(reg: str) -> ir.Value:
    return simt.SpecialRegOp.build(reg=reg, results=[ir.IntegerType.get_signless(32)])


def _no_args(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _two_args(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return len(args) == 2


@device_fn(*(f"cluster::{name}" for name in _REGISTERS), when=_no_args)
def _register(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    return Val(_U32, _sreg(_REGISTERS[segs[-1]]))


@device_fn("cluster::cluster_idx", "cluster::num_clusters", when=_no_args)
def _cluster_index(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                   loc: Any) -> Val:
    counts = [_sreg(f"nclusterid_{a}") for a in "xyz"]
    if segs[-1] == "num_clusters":
        return Val(_U32, arith.muli(arith.muli(counts[0], counts[1]), counts[2]))
    ids = [_sreg(f"clusterid_{a}") for a in "xyz"]
    linear = arith.addi(ids[0], arith.muli(counts[0], arith.addi(ids[1], arith.muli(counts[1], ids[2]))))
    return Val(_U32, linear)


@device_fn("cluster_sync", when=_no_args)
def _cluster_sync(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                  loc: Any) -> Val:
    # arrive has release and wait acquire semantics: shared-memory writes before the barrier are visible to
    # every block of the cluster after it. Every thread calls both, so the aligned forms apply.
    cluster_sync()
    return Val(T.UNIT, None)


def cluster_sync() -> None:
    """The whole cluster barrier: arrive (release) then wait (acquire), every thread of the warp together."""
    simt.ClusterArriveOp.build(relaxed=False, aligned=True)
    simt.ClusterWaitOp.build(aligned=True)


# cuda_device's split cluster barrier (generated/cluster_barrier.rs): name -> (relaxed, aligned) of an arrive,
# or (None, aligned) of a wait. They are unsafe there: a thread that arrives twice in one phase, or waits
# without arriving, is undefined behaviour.
_SPLIT_BARRIER = {"barrier_cluster_arrive": (False, False), "barrier_cluster_arrive_aligned": (False, True),
                  "barrier_cluster_arrive_relaxed": (True, False),
                  "barrier_cluster_arrive_relaxed_aligned": (True, True),
                  "barrier_cluster_wait": (None, False), "barrier_cluster_wait_aligned": (None, True)}


@device_fn(*_SPLIT_BARRIER, when=_no_args)
def _split_barrier(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                   loc: Any) -> Val:
    em.require_unsafe(loc, f"`{segs[-1]}` (arriving twice in a phase or waiting without arriving is undefined)")
    relaxed, aligned = _SPLIT_BARRIER[segs[-1]]
    if relaxed is None:
        simt.ClusterWaitOp.build(aligned=aligned)
    else:
        simt.ClusterArriveOp.build(relaxed=relaxed, aligned=aligned)
    return Val(T.UNIT, None)


def _local_pointer(em: Emitter, a: ast.Expr, name: str) -> Val:
    value = em.expr(a)
    if isinstance(value.ty, T.Shared):
        value = shared_as_pointer(value)
    if not isinstance(value.ty, T.Ptr) or value.ty.space not in simt.MAPPED_SPACE:
        raise err(a.loc, f"`{name}` takes a pointer to a shared variable (or its generic address), not "
                         f"`{value.ty}`")
    return value


def _rank(em: Emitter, a: ast.Expr) -> ir.Value:
    return em.coerce(em.expr(a, _U32), _U32, a.loc).v


def map_shared_rank(em: Emitter, ptr: Val, rank: ir.Value, mutable: bool) -> Val:
    """The pointer `ptr` (shared or generic) mapped into the shared memory of cluster block `rank`."""
    mapped = T.Ptr(ptr.ty.elem, mutable, simt.MAPPED_SPACE[ptr.ty.space])
    return Val(mapped, simt.MapSharedRankOp.build(ptr.v, rank, results=[mapped.mlir()]))


@device_fn("map_shared_rank", "map_shared_rank_mut", when=_two_args)
def _map_shared_rank(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                     loc: Any) -> Val:
    em.require_unsafe(loc, f"`cluster::{segs[-1]}`")
    ptr = _local_pointer(em, args[0], segs[-1])
    return map_shared_rank(em, ptr, _rank(em, args[1]), segs[-1].endswith("_mut") or ptr.ty.mutable)


@device_fn("dsmem_read_u32", when=_two_args)
def _dsmem_read(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    em.require_unsafe(loc, "`cluster::dsmem_read_u32`")
    ptr = _local_pointer(em, args[0], "dsmem_read_u32")
    if ptr.ty.elem != _U32:
        raise err(args[0].loc, f"`dsmem_read_u32` reads a `u32`, but the pointer is `{ptr.ty}`")
    remote = map_shared_rank(em, ptr, _rank(em, args[1]), False)
    return Val(_U32, simt.PtrLoadOp.build(remote.v, results=[_U32.mlir()]))
