"""Lowering of simt's masked vector accesses to LLVM's masked gather and scatter.

Lane k's address is p + k * stride and it is active when k < count (signed, so a negative count activates
none). The alignment is the element's: nothing says the run is vector-aligned, and LLVM's code generator
expands both intrinsics into N predicated scalar accesses on NVPTX.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm

from oxide.dialects.simt import masked as ops
from oxide.passes.conversion.lowering import LoweringContext, natural_alignment
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

_DYNAMIC = -2147483648  # LLVM's marker for "the next GEP index is an SSA operand"


def _splat(value: ir.Value, lanes: int) -> ir.Value:
    vector = ir.VectorType.get([lanes], value.type)
    i32 = ir.IntegerType.get_signless(32)
    one = llvm.insertelement(llvm.mlir_poison(vector), value, llvm.mlir_constant(ir.IntegerAttr.get(i32, 0)))
    return llvm.shufflevector(vector, one, one, ir.DenseI32ArrayAttr.get([0] * lanes))


def _lanes(ptr: ir.Value, stride: ir.Value, count: ir.Value, vector: ir.VectorType) -> tuple[ir.Value, ir.Value]:
    """(the lanes' pointers, their mask)."""
    lanes = vector.shape[0]
    i64 = ir.IntegerType.get_signless(64)
    iota_type = ir.VectorType.get([lanes], i64)
    iota = llvm.mlir_constant(ir.Attribute.parse(f"dense<{list(range(lanes))}> : {iota_type}"))
    mask = llvm.icmp(llvm.ICmpPredicate.slt, iota, _splat(count, lanes))
    offsets = llvm.mul(iota, _splat(stride, lanes), llvm.IntegerOverflowFlags.none)
    pointers_type = ir.VectorType.get([lanes], ptr.type)
    pointers = llvm.getelementptr(pointers_type, ptr, [offsets], ir.DenseI32ArrayAttr.get([_DYNAMIC]),
                                  ir.TypeAttr.get(vector.element_type), llvm.GEPNoWrapFlags.none)
    return pointers, mask


@lowering(ops.MaskedLoadOp)
def lower_masked_load(ctx: LoweringContext, op: ops.MaskedLoadOp) -> ir.Value:
    vector = ir.VectorType(op.result.type)
    pointers, mask = _lanes(ctx.parts(op.ptr)[0], op.stride, op.count, vector)
    return llvm.intr_masked_gather(vector, pointers, mask, [llvm.mlir_zero(vector)],
                                   natural_alignment(vector.element_type))


@lowering(ops.MaskedStoreOp)
def lower_masked_store(ctx: LoweringContext, op: ops.MaskedStoreOp) -> None:
    vector = ir.VectorType(op.value.type)
    pointers, mask = _lanes(ctx.parts(op.ptr)[0], op.stride, op.count, vector)
    llvm.intr_masked_scatter(op.value, pointers, mask, natural_alignment(vector.element_type))
