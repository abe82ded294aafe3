"""cuda_device's grid and cluster groups: `grid::sync()`, `this_grid()` (a `Grid`: `sync`, `size`,
`thread_rank`, `num_blocks`, `block_rank`) and `this_cluster()` (a `Cluster`: the same queries over the
thread-block cluster, `sync` being the cluster barrier).

A grid barrier needs every block of the grid resident at once, which only a cooperative launch promises:
`grid::sync` is accepted only in a kernel marked `#[cooperative_launch]` (or a device function inlined into
one). Such a kernel takes the launch's grid-barrier workspace as a hidden last parameter (the runtime
allocates it per launch), which simt.grid_sync works on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.cluster import cluster_sync
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.cooperative import block_size, linear_tid
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import Val

_U32 = T.PRIMITIVES["u32"]


@dataclass(frozen=True)
class GridGroupTy(T.Ty):
    """`Grid` (`cluster = False`) or `Cluster`: a group handle with no run-time value."""

    cluster: bool = False

    def rust(self) -> str:
        return "Cluster" if self.cluster else "Grid"


def _no_args(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _sreg(reg: str) -> ir.Value:
    return simt.SpecialRegOp.build(reg=reg, results=[ir.IntegerType.get_signless(32)])


def grid_sync(em: Emitter, loc: Any) -> None:
    """The grid barrier, on the enclosing cooperative kernel's workspace; a located error elsewhere."""
    kernel = em.kernel
    if not kernel.attrs.get("cooperative"):
        where = f"kernel `{kernel.name}`"
        if em.inline_fns:
            where = f"`{em.inline_fns[-1].name}`, inlined into kernel `{kernel.name}`,"
        raise err(loc, f"`grid::sync()` in {where} needs a cooperative launch (every block resident at once, "
                       f"or the barrier never completes); add #[cooperative_launch] to kernel `{kernel.name}`")
    assert em.entry is not None
    simt.GridSyncOp.build(em.entry.arguments[-1])


@device_fn("grid::sync", when=_no_args)
def _grid_sync(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val:
    grid_sync(em, loc)
    return Val(T.UNIT, None)


@device_fn("this_grid", "this_cluster", when=_no_args)
def _this_group(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    return Val(GridGroupTy(segs[-1] == "this_cluster"), None)


def _blocks(cluster: bool) -> tuple[ir.Value, ir.Value]:
    """(number of blocks, this block's linear rank) in the grid or the cluster."""
    if cluster:
        return _sreg("cluster_nctarank"), _sreg("cluster_ctarank")
    ids = [simt.BlockIdOp.build(dim=simt.DimAttr.get(a)) for a in "xyz"]
    counts = [simt.GridDimOp.build(dim=simt.DimAttr.get(a)) for a in "xyz"]
    rank = arith.addi(ids[0], arith.muli(counts[0], arith.addi(ids[1], arith.muli(counts[1], ids[2]))))
    return arith.muli(arith.muli(counts[0], counts[1]), counts[2]), rank


@device_method(GridGroupTy, "sync", "size", "thread_rank", "num_blocks", "block_rank",
               when=lambda em, recv, name, args, *_: not args)
def _group_method(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                  expected: T.Ty | None) -> Val:
    cluster = recv.ty.cluster
    if name == "sync":
        if cluster:
            cluster_sync()
        else:
            grid_sync(em, loc)
        return Val(T.UNIT, None)
    count, rank = _blocks(cluster)
    # u32 arithmetic wraps as in cuda_device (a grid of more than 2^32 threads has no u32 rank).
    if name == "num_blocks":
        return Val(_U32, count)
    if name == "block_rank":
        return Val(_U32, rank)
    if name == "size":
        return Val(_U32, arith.muli(count, block_size()))
    return Val(_U32, arith.addi(arith.muli(rank, block_size()), linear_tid()))
