"""Lowering of simt TMA ops to the NVVM dialect's own bulk-copy ops: `nvvm.cp.async.bulk.tensor.shared.cluster.global`
(load), `nvvm.cp.async.bulk.tensor.global.shared.cta` (store), `nvvm.cp.async.bulk.commit.group`,
`nvvm.cp.async.bulk.wait_group` and `nvvm.prefetch tensormap`. Every one needs sm_90; multicast is sm_90a only.

A tensor map lowers to its generic address (`!llvm.ptr`); on a grid-constant kernel parameter NVPTX takes
it with `cvta.param`, so the instruction reads the descriptor from the parameter space.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm, nvvm

from oxide.dialects.simt import tma as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

_OLDER_CHIP = "TMA exists from Hopper on; copy through shared memory with ordinary loads and stores instead"


@lowering(ops.TmaLoadOp)
def lower_tma_load(ctx: LoweringContext, op: ops.TmaLoadOp) -> None:
    ctx.require_sm(90, "cp.async.bulk.tensor (a TMA load)", _OLDER_CHIP)
    mask = op.multicast_mask
    if mask is not None:
        ctx.require_arch_specific(90, "TMA multicast")
    # The instruction names its destination in the shared::cluster window (address space 7); a block's own
    # shared-memory address is valid there.
    dst = llvm.addrspacecast(ir.Type.parse("!llvm.ptr<7>"), ctx.parts(op.dst)[0])
    nvvm.CpAsyncBulkTensorGlobalToSharedClusterOp(dst, ctx.parts(op.tensor_map)[0], list(op.coordinates),
                                                  ctx.parts(op.barrier)[0], [], multicastMask=mask)


@lowering(ops.TmaStoreOp)
def lower_tma_store(ctx: LoweringContext, op: ops.TmaStoreOp) -> None:
    ctx.require_sm(90, "cp.async.bulk.tensor (a TMA store)", _OLDER_CHIP)
    nvvm.CpAsyncBulkTensorSharedCTAToGlobalOp(ctx.parts(op.tensor_map)[0], ctx.parts(op.src)[0],
                                              list(op.coordinates))


@lowering(ops.BulkCommitGroupOp)
def lower_bulk_commit_group(ctx: LoweringContext, op: ops.BulkCommitGroupOp) -> None:
    ctx.require_sm(90, "cp.async.bulk.commit_group", _OLDER_CHIP)
    nvvm.CpAsyncBulkCommitGroupOp()


@lowering(ops.BulkWaitGroupOp)
def lower_bulk_wait_group(ctx: LoweringContext, op: ops.BulkWaitGroupOp) -> None:
    ctx.require_sm(90, "cp.async.bulk.wait_group", _OLDER_CHIP)
    read = ir.UnitAttr.get() if op.until == "read" else None
    nvvm.CpAsyncBulkWaitGroupOp(ir.IntegerAttr.get(ir.IntegerType.get_signless(32), op.pending), read=read)


@lowering(ops.TmaPrefetchOp)
def lower_tma_prefetch(ctx: LoweringContext, op: ops.TmaPrefetchOp) -> None:
    ctx.require_sm(90, "prefetch.tensormap", "leave the prefetch out: the copies read the tensor map anyway")
    nvvm.PrefetchOp(ctx.parts(op.tensor_map)[0], tensormap=True)
