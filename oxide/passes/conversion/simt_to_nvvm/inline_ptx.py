"""Lowering of `simt.inline_ptx` to `llvm.inline_asm` (pointer operands as their LLVM pointers); several
outputs come back as an LLVM struct and are taken apart."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm

from oxide.dialects.simt import inline_ptx as ops
from oxide.dialects.simt.types import PtrType
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering


@lowering(ops.InlinePtxOp)
def lower_inline_ptx(ctx: LoweringContext, op: ops.InlinePtxOp) -> list | ir.Value | None:
    operands = [ctx.parts(v)[0] if PtrType.isinstance(v.type) else v for v in op.args]
    types = [r.type for r in op.results_]
    if not types:
        llvm.inline_asm(None, operands, op.asm, op.constraints, has_side_effects=True)
        return None
    if len(types) == 1:
        return llvm.inline_asm(types[0], operands, op.asm, op.constraints, has_side_effects=True)
    packed = ir.Type.parse(f"!llvm.struct<({', '.join(str(t) for t in types)})>")
    whole = llvm.inline_asm(packed, operands, op.asm, op.constraints, has_side_effects=True)
    return [llvm.extractvalue(t, whole, [i]) for i, t in enumerate(types)]
