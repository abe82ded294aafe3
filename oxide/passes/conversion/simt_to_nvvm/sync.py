"""Lowering of simt synchronisation: `bar.sync 0`, named `bar.sync` and `bar.arrive`, `bar.warp.sync` and
`membar.{cta,gl,sys}`."""

from __future__ import annotations

from mlir.dialects import nvvm

from oxide.dialects.simt import sync as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

# membar.gl and membar.sys are, since sm_70, the sequentially consistent fence.sc at gpu / sys scope.
_FENCE_SCOPE = {"block": nvvm.MemScopeKind.CTA, "device": nvvm.MemScopeKind.GPU, "system": nvvm.MemScopeKind.SYS}


@lowering(ops.SyncThreadsOp)
def lower_sync_threads(ctx: LoweringContext, op: ops.SyncThreadsOp) -> None:
    nvvm.barrier0()


@lowering(ops.NamedBarrierOp)
def lower_named_barrier(ctx: LoweringContext, op: ops.NamedBarrierOp) -> None:
    nvvm.BarrierOp(None, barrierId=ctx.const("i32", op.id), numberOfThreads=ctx.const("i32", op.threads))


@lowering(ops.NamedBarrierArriveOp)
def lower_named_barrier_arrive(ctx: LoweringContext, op: ops.NamedBarrierArriveOp) -> None:
    nvvm.BarrierArriveOp(ctx.const("i32", op.threads), barrierId=ctx.const("i32", op.id))


@lowering(ops.WarpSyncOp)
def lower_warp_sync(ctx: LoweringContext, op: ops.WarpSyncOp) -> None:
    nvvm.bar_warp_sync(op.mask)


@lowering(ops.ThreadFenceOp)
def lower_thread_fence(ctx: LoweringContext, op: ops.ThreadFenceOp) -> None:
    nvvm.memory_barrier(_FENCE_SCOPE[op.scope])
