"""Lowering of simt constant memory: `simt.constant_addr` is `llvm.mlir.addressof` of its global."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm

from oxide.dialects.simt import constant as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering


@lowering(ops.ConstantAddrOp)
def lower_constant_addr(ctx: LoweringContext, op: ops.ConstantAddrOp) -> list:
    return [llvm.AddressOfOp(ir.Type.parse("!llvm.ptr<4>"), op.symbol).result]
