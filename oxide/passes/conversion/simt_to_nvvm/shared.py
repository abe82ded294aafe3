"""Lowering of simt shared memory: each static array becomes an address-space-3 global of the
gpu.module; dynamic shared memory is one external, zero-sized global the launch sizes."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm

from oxide.dialects.simt import shared as ops
from oxide.dialects.simt.types import SharedType
from oxide.ir.declare import python_value
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

DYNAMIC_SHARED_SYMBOL = "__oxide_dynamic_shared"


def _shared_global(ctx: LoweringContext, name: str, array_type: ir.Type, align: int, linkage: str) -> None:
    with ctx.at_module_start(), ir.Location.unknown():
        llvm.mlir_global(ir.TypeAttr.get(array_type), name, ir.Attribute.parse(f"#llvm.linkage<{linkage}>"),
                         alignment=ir.IntegerAttr.get(ir.IntegerType.get_signless(64), align),
                         addr_space=ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 3))


@lowering(ops.SharedArrayOp)
def lower_shared_array(ctx: LoweringContext, op: ops.SharedArrayOp) -> list:
    elem, count = SharedType.parameters_of(op.result.type)
    name = ctx.unique_symbol("__oxide_shared")
    _shared_global(ctx, name, ir.Type.parse(f"!llvm.array<{python_value(count)} x {elem}>"), op.align, "internal")
    return [llvm.mlir_addressof(ir.Type.parse("!llvm.ptr<3>"), name)]


def _element(ctx: LoweringContext, array: ir.Value, index: ir.Value) -> tuple[ir.Value, ir.Type]:
    elem, count = SharedType.parameters_of(array.type)
    ok = arith.cmpi(arith.CmpIPredicate.ult, ctx.i64(index), ctx.const("i64", python_value(count)))
    ctx.trap_unless(ok)
    return ctx.gep(ctx.parts(array)[0], index, elem), elem


@lowering(ops.SharedLoadOp)
def lower_shared_load(ctx: LoweringContext, op: ops.SharedLoadOp) -> ir.Value:
    address, elem = _element(ctx, op.array, op.index)
    return ctx.load(elem, address)


@lowering(ops.SharedStoreOp)
def lower_shared_store(ctx: LoweringContext, op: ops.SharedStoreOp) -> None:
    address, _ = _element(ctx, op.array, op.index)
    ctx.store(op.value, address)


@lowering(ops.SharedPtrOp)
def lower_shared_ptr(ctx: LoweringContext, op: ops.SharedPtrOp) -> list:
    return [ctx.parts(op.array)[0]]


@lowering(ops.DynamicSharedOp)
def lower_dynamic_shared(ctx: LoweringContext, op: ops.DynamicSharedOp) -> list:
    existing = [o for o in ctx.container.regions[0].blocks[0].operations
                if "sym_name" in o.attributes and ir.StringAttr(o.attributes["sym_name"]).value == DYNAMIC_SHARED_SYMBOL]
    if existing:
        glob = existing[0]
        current = python_value(glob.attributes["alignment"])
        if op.align > current:
            glob.attributes["alignment"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), op.align)
    else:
        _shared_global(ctx, DYNAMIC_SHARED_SYMBOL, ir.Type.parse("!llvm.array<0 x i8>"), op.align, "external")
    base = llvm.mlir_addressof(ir.Type.parse("!llvm.ptr<3>"), DYNAMIC_SHARED_SYMBOL)
    return [ctx.gep(base, op.offset, ir.IntegerType.get_signless(8))]
