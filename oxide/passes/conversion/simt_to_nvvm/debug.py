"""Lowering of simt debugging ops: `simt.assert` becomes upstream `cf.assert`, which convert-gpu-to-nvvm
turns into a call of CUDA's `__assertfail` (message, file, line); `simt.trap` is PTX `trap;`."""

from __future__ import annotations

from mlir.dialects import cf, llvm

from oxide.dialects.simt import debug as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering


@lowering(ops.AssertOp)
def lower_assert(ctx: LoweringContext, op: ops.AssertOp) -> None:
    cf.assert_(op.cond, op.message)


@lowering(ops.TrapOp)
def lower_trap(ctx: LoweringContext, op: ops.TrapOp) -> None:
    llvm.intr_trap()
