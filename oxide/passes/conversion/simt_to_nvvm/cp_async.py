"""Lowering of simt cp.async ops to the NVVM dialect's own ops: `nvvm.cp.async.shared.global`,
`nvvm.cp.async.commit.group` and `nvvm.cp.async.wait.group`. Every one needs sm_80.

16-byte copies use the `.cg` cache modifier (cache in L2 only): a GEMM's operand tiles are read once per
block from shared memory, so keeping them in L1 too only evicts other data. PTX allows `.cg` for 16-byte
copies alone; smaller ones use `.ca`.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import nvvm

from oxide.dialects.simt import cp_async as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

_OLDER_CHIP = "asynchronous copies exist from Ampere on; copy with ordinary loads and stores instead"
_BYPASS_L1_BYTES = 16


def _i32(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(32), value)


@lowering(ops.CpAsyncOp)
def lower_cp_async(ctx: LoweringContext, op: ops.CpAsyncOp) -> None:
    ctx.require_sm(80, "cp.async", _OLDER_CHIP)
    size = op.bytes
    modifier = "cg" if size == _BYPASS_L1_BYTES else "ca"
    nvvm.CpAsyncOp(ctx.parts(op.dst)[0], ctx.parts(op.src)[0], _i32(size),
                   ir.Attribute.parse(f"#nvvm<load_cache_modifier {modifier}>"), cpSize=op.src_size)


@lowering(ops.CpAsyncCommitGroupOp)
def lower_cp_async_commit_group(ctx: LoweringContext, op: ops.CpAsyncCommitGroupOp) -> None:
    ctx.require_sm(80, "cp.async.commit_group", _OLDER_CHIP)
    nvvm.CpAsyncCommitGroupOp()


@lowering(ops.CpAsyncWaitGroupOp)
def lower_cp_async_wait_group(ctx: LoweringContext, op: ops.CpAsyncWaitGroupOp) -> None:
    ctx.require_sm(80, "cp.async.wait_group", _OLDER_CHIP)
    nvvm.CpAsyncWaitGroupOp(_i32(op.pending))
