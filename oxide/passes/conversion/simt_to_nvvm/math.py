"""Lowering of simt math: `simt.libdevice` becomes a call of the libdevice function, declared once in the
gpu.module; oxide-attach-target then links libdevice because the module declares an `__nv_*` function."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm

from oxide.dialects.simt import math as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering


def _declare(ctx: LoweringContext, symbol: str, float_type: ir.Type, arity: int) -> None:
    """Declare `symbol` as an external llvm.func in the gpu.module unless it is declared already (by an
    earlier simt.libdevice, or by the user)."""
    body = ctx.container.regions[0].blocks[0]
    if any("sym_name" in op.attributes and ir.StringAttr(op.attributes["sym_name"]).value == symbol
           for op in body.operations):
        return
    signature = ir.Type.parse(f"!llvm.func<{float_type}({', '.join([str(float_type)] * arity)})>")
    with ctx.at_module_start(), ir.Location.unknown():
        llvm.LLVMFuncOp(symbol, ir.TypeAttr.get(signature), sym_visibility="private")


@lowering(ops.LibdeviceOp)
def lower_libdevice(ctx: LoweringContext, op: ops.LibdeviceOp) -> ir.Value:
    float_type = op.result.type
    symbol = ops.libdevice_symbol(op.fn, str(float_type))
    _declare(ctx, symbol, float_type, len(op.args))
    return llvm.call(float_type, list(op.args), [], [], callee=ir.FlatSymbolRefAttr.get(symbol))
