"""simt thread-block cluster and grid ops: the cluster barrier (split into arrive and wait), distributed
shared memory (another block's shared variable through `mapa`) and the grid-wide barrier of a cooperative
launch.

Clusters exist from sm_90 on; the lowering refuses an older target with a located error. Which block of the
cluster a thread is in, and the cluster's shape, are `simt.special_reg` registers (`cluster_ctarank`, ...).

Address spaces: a shared pointer (3) maps to a `shared::cluster` pointer (7), the space that loads, stores
and a remote mbarrier arrive into another block's shared memory take; a generic pointer (0) maps to a generic
pointer. The grid barrier works in global memory: its operand is the launch's two-word workspace (arrival
count, generation), which a cooperative kernel receives as a hidden last parameter.
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import AnyOf, AnyType, Is, Parametric, TypeVar
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError, python_value

_BOOL = AnyOf(Is("true"), Is("false"))
# The address space a mapped pointer has, per address space of the pointer mapped: shared -> shared::cluster,
# generic -> generic (PTX `mapa.shared::cluster` and `mapa`).
MAPPED_SPACE = {3: 7, 0: 0}


@DIALECT.op
class ClusterArriveOp(Op):
    """`cluster::barrier_cluster_arrive()` and its variants: this thread arrives on the cluster barrier and
    goes on. With `relaxed = false` the arrive releases this thread's earlier memory accesses to the
    cluster (the matching wait acquires them); with `relaxed = true` it orders nothing. `aligned = true`
    promises that every thread of the warp executes the same arrive (PTX `.aligned`).

    PTX `barrier.cluster.arrive[.relaxed][.aligned]`; sm_90.
    """

    mnemonic = "cluster_arrive"
    relaxed = Attr(_BOOL, "true: no memory ordering (`.relaxed`)")
    aligned = Attr(_BOOL, "true: every thread of the warp executes this arrive (`.aligned`)")


@DIALECT.op
class ClusterWaitOp(Op):
    """`cluster::barrier_cluster_wait()`: wait until every non-exited thread of the cluster has arrived, and
    acquire what their (non-relaxed) arrives released. `aligned = true` as for cluster_arrive.

    PTX `barrier.cluster.wait[.aligned]`; sm_90.
    """

    mnemonic = "cluster_wait"
    aligned = Attr(_BOOL, "true: every thread of the warp executes this wait (`.aligned`)")


_MAP_T = TypeVar("T")


@DIALECT.op
class MapSharedRankOp(Op):
    """`cluster::map_shared_rank(p, rank)`: the address of the variable at `p` in the shared memory of the
    cluster's block `rank` (distributed shared memory). A shared pointer (3) maps to a `shared::cluster`
    pointer (7); a generic pointer (0) to a generic one. The element type is kept.

    PTX `mapa.shared::cluster.u64` / `mapa.u64`; sm_90. A rank outside the cluster is undefined behaviour
    on the device, as in PTX.
    """

    mnemonic = "map_shared_rank"
    ptr = Operand(Parametric(PtrType, _MAP_T, AnyType()), "a pointer into this block's shared memory")
    rank = Operand(Is("i32"), "the cluster rank of the block whose shared memory to address")
    result = Result(Parametric(PtrType, _MAP_T, AnyType()))

    def verify_(self) -> None:
        source = python_value(PtrType.parameters_of(self.ptr.type)[1])
        target = python_value(PtrType.parameters_of(self.result.type)[1])
        if source not in MAPPED_SPACE:
            raise VerifyError(f"maps a shared (3) or generic (0) pointer, not one into address space {source}")
        if target != MAPPED_SPACE[source]:
            raise VerifyError(f"a pointer into address space {source} maps to address space "
                              f"{MAPPED_SPACE[source]}, but the result is in {target}")


@DIALECT.op
class GridSyncOp(Op):
    """`grid::sync()` / `this_grid().sync()`: wait until every thread of the grid arrives, and make each
    one's earlier global and shared writes visible to all the others (a release/acquire at device scope).

    Needs a cooperative launch (every block co-resident; the runtime refuses a grid that cannot be).
    `workspace` is the launch's two i32 words in global memory (arrival count, generation), zeroed by the
    runtime before the launch. Lowers to a block barrier, one thread per block arriving on the count and,
    unless it is the last, spinning with acquire loads until the generation changes, and a block barrier
    again: the last arriver resets the count before advancing the generation, so the workspace serves any
    number of syncs.
    """

    mnemonic = "grid_sync"
    workspace = Operand(Parametric(PtrType, Is("i32"), Is("1 : i64")), "the launch's grid-barrier workspace (hidden kernel parameter)")
