"""Lowering of simt debugging ops: `simt.assert` becomes upstream `cf.assert`, which convert-gpu-to-nvvm
turns into a call of CUDA's `__assertfail` (message, file, line); `simt.trap` is PTX `trap;`;
`simt.printf` is a call of CUDA's `vprintf(format, buffer)`, whose i32 result it keeps (upstream
gpu.printf drops it): the format is a constant global string, the arguments a stack struct in order."""

from __future__ import annotations

from mlir import ir
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


def _declare_vprintf(ctx: LoweringContext) -> None:
    """`i32 vprintf(ptr, ptr)` as an external function of the gpu.module, once."""
    body = ctx.container.regions[0].blocks[0]
    if any("sym_name" in op.attributes and ir.StringAttr(op.attributes["sym_name"]).value == "vprintf"
           for op in body.operations):
        return
    with ctx.at_module_start(), ir.Location.unknown():
        llvm.LLVMFuncOp("vprintf", ir.TypeAttr.get(ir.Type.parse("!llvm.func<i32 (ptr, ptr)>")),
                        sym_visibility="private")


@lowering(ops.PrintfOp)
def lower_printf(ctx: LoweringContext, op: ops.PrintfOp) -> ir.Value:
    _declare_vprintf(ctx)
    text = op.format.encode() + b"\0"
    string_type = ir.Type.parse(f"!llvm.array<{len(text)} x i8>")
    name = ctx.unique_symbol("__oxide_printf_format")
    with ctx.at_module_start(), ir.Location.unknown():
        llvm.mlir_global(ir.TypeAttr.get(string_type), name, ir.Attribute.parse("#llvm.linkage<internal>"),
                         constant=True, value=ir.StringAttr.get(op.format + "\0"))
    ptr = ir.Type.parse("!llvm.ptr")
    fmt = llvm.mlir_addressof(ptr, name)
    args = op.arguments()
    if args:
        # vprintf reads each argument at its natural alignment, as a C struct lays them out.
        struct = ir.Type.parse(f"!llvm.struct<({', '.join(str(a.type) for a in args)})>")
        buffer = llvm.alloca(ptr, ctx.const("i64", 1), struct)
        for i, a in enumerate(args):
            field = llvm.getelementptr(ptr, buffer, [], [0, i], struct, no_wrap_flags=0)
            llvm.store(a, field)
    else:
        buffer = llvm.mlir_zero(ptr)
    return llvm.call(ir.IntegerType.get_signless(32), [fmt, buffer], [], [],
                     callee=ir.FlatSymbolRefAttr.get("vprintf"))
