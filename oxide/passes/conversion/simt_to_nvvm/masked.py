"""Lowering of simt's masked vector accesses to LLVM's masked gather and scatter, and of its guarded accesses
to predicated PTX.

Lane k's address is p + k * stride and it is active when k < count (signed, so a negative count activates
none). The alignment is the element's: nothing says the run is vector-aligned, and LLVM's code generator
expands both intrinsics into N predicated scalar accesses on NVPTX, each behind a branch.

A guarded access is one predicated PTX instruction (`@p ld.global.nc.v4.b32`, after zeroing moves for a load),
written as inline PTX because LLVM has no branch-free form of a conditional load: the predicate travels as an
i1 in a predicate register (constraint `b`). The asm is marked as having side effects so that LLVM keeps it
in order with the kernel's other memory accesses; ptxas schedules the PTX as usual.
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


def _registers(first: int, count: int) -> str:
    """The operands $first.. of one access: `$0` alone, or a vector `{$0, $1, ..}`."""
    names = ", ".join(f"${first + k}" for k in range(count))
    return names if count == 1 else f"{{{names}}}"


def _shape(count: int) -> str:
    return ".b32" if count == 1 else f".v{count}.b32"


@lowering(ops.GuardedLoadOp)
def lower_guarded_load(ctx: LoweringContext, op: ops.GuardedLoadOp) -> ir.Value:
    vector = ir.VectorType(op.result.type)
    count = vector.shape[0]
    i32 = ir.IntegerType.get_signless(32)
    zeros = " ".join(f"mov.b32 ${k}, 0;" for k in range(count))
    cache = ".nc" if op.readonly else ""
    asm = f"{zeros} @${count + 1} ld.global{cache}{_shape(count)} {_registers(0, count)}, [${count}];"
    constraints = ",".join(["=r"] * count + ["l", "b"])
    operands = [ctx.parts(op.ptr)[0], op.pred]
    if count == 1:
        words = [llvm.inline_asm(i32, operands, asm, constraints, has_side_effects=True)]
    else:
        packed = ir.Type.parse(f"!llvm.struct<({', '.join(['i32'] * count)})>")
        whole = llvm.inline_asm(packed, operands, asm, constraints, has_side_effects=True)
        words = [llvm.extractvalue(i32, whole, [k]) for k in range(count)]
    result = llvm.mlir_poison(vector)
    for k, word in enumerate(words):
        element = llvm.bitcast(vector.element_type, word) if vector.element_type != i32 else word
        index = llvm.mlir_constant(ir.IntegerAttr.get(i32, k))
        result = llvm.insertelement(result, element, index)
    return result


@lowering(ops.GuardedStoreOp)
def lower_guarded_store(ctx: LoweringContext, op: ops.GuardedStoreOp) -> None:
    vector = ir.VectorType(op.value.type)
    count = vector.shape[0]
    i32 = ir.IntegerType.get_signless(32)
    words = []
    for k in range(count):
        element = llvm.extractelement(op.value, llvm.mlir_constant(ir.IntegerAttr.get(i32, k)))
        words.append(llvm.bitcast(i32, element) if vector.element_type != i32 else element)
    asm = f"@$1 st.global{_shape(count)} [$0], {_registers(2, count)};"
    llvm.inline_asm(None, [ctx.parts(op.ptr)[0], op.pred, *words], asm, ",".join(["l", "b"] + ["r"] * count),
                    has_side_effects=True)


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
