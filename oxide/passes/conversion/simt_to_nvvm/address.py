"""Lowering of simt address ops: `addrspacecast` to the generic space then `ptrtoint`, and `inttoptr`."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm

from oxide.dialects.simt import address as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering


@lowering(ops.PtrToIntOp)
def lower_ptr_to_int(ctx: LoweringContext, op: ops.PtrToIntOp) -> ir.Value:
    ptr = ctx.parts(op.ptr)[0]
    if str(ptr.type) != "!llvm.ptr":
        ptr = llvm.addrspacecast(ir.Type.parse("!llvm.ptr"), ptr)  # cvta: the generic address
    return llvm.ptrtoint(ir.IntegerType.get_signless(64), ptr)


@lowering(ops.IntToPtrOp)
def lower_int_to_ptr(ctx: LoweringContext, op: ops.IntToPtrOp) -> list:
    return [llvm.inttoptr(ir.Type.parse("!llvm.ptr"), op.address)]
