"""Lowering of simt memory ops to LLVM loads, stores and address arithmetic on global pointers."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, llvm

from oxide.dialects.simt import memory as ops
from oxide.dialects.simt.types import DisjointType, PtrType, SliceType
from oxide.ir.declare import python_value
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.kernel import COHERENT_MARKER
from oxide.passes.conversion.simt_to_nvvm.rules import lowering
from oxide.passes.conversion.simt_to_nvvm.types import element_type_in


def _in_bounds(ctx: LoweringContext, index: ir.Value, length: ir.Value) -> ir.Value:
    return arith.cmpi(arith.CmpIPredicate.ult, ctx.i64(index), length)


def _invariant(op: Any) -> bool | None:
    """Whether a slice read may be an invariant (ld.global.nc) load; None means "no", as the builder wants."""
    coherent = COHERENT_MARKER in op.operation.attributes
    return (SliceType.isinstance(op.slice.type) and not coherent) or None


def _load(ctx: LoweringContext, slice_value: ir.Value, index: ir.Value, result_type: ir.Type, checked: bool,
          invariant: bool | None) -> ir.Value:
    ptr, length = ctx.parts(slice_value)[:2]
    if checked:
        ctx.trap_unless(_in_bounds(ctx, index, length))
    address = ctx.gep(ptr, index, result_type)
    # Read-only slices never overlap a writable buffer of the launch (the runtime checks every pair), so
    # their loads are invariant for the kernel's lifetime and NVPTX emits ld.global.nc; see _invariant.
    return ctx.load(result_type, address, invariant=invariant)


@lowering(ops.LenOp)
def lower_len(ctx: LoweringContext, op: ops.LenOp) -> ir.Value:
    return ctx.index(ctx.parts(op.slice)[1])


@lowering(ops.LoadOp)
def lower_load(ctx: LoweringContext, op: ops.LoadOp) -> ir.Value:
    return _load(ctx, op.slice, op.index, op.result.type, checked=True, invariant=_invariant(op))


@lowering(ops.LoadUncheckedOp)
def lower_load_unchecked(ctx: LoweringContext, op: ops.LoadUncheckedOp) -> ir.Value:
    return _load(ctx, op.slice, op.index, op.result.type, checked=False, invariant=_invariant(op))


@lowering(ops.StoreOp)
def lower_store(ctx: LoweringContext, op: ops.StoreOp) -> None:
    ptr, length = ctx.parts(op.slice)
    ctx.trap_unless(_in_bounds(ctx, op.index, length))
    ctx.store(op.value, ctx.gep(ptr, op.index, op.value.type))


@lowering(ops.StoreUncheckedOp)
def lower_store_unchecked(ctx: LoweringContext, op: ops.StoreUncheckedOp) -> None:
    ctx.store(op.value, ctx.gep(ctx.parts(op.slice)[0], op.index, op.value.type))


@lowering(ops.GetMutOp)
def lower_get_mut(ctx: LoweringContext, op: ops.GetMutOp) -> list:
    slice_parts = ctx.parts(op.slice)
    witness = ctx.parts(op.witness)
    elem = element_type_in(ctx, op.slice.type)
    if python_value(DisjointType.parameters_of(op.slice.type)[1]) == "runtime_2d":
        ptr, length, width = slice_parts
        row, col, valid = witness
        width64 = arith.extui(ir.IntegerType.get_signless(64), width)
        flat = arith.addi(arith.muli(row, width64), col)
        in_row = arith.cmpi(arith.CmpIPredicate.ult, col, width64)
        ok = arith.andi(arith.andi(valid, in_row), _in_bounds(ctx, flat, length))
    else:
        ptr, length = slice_parts
        flat, valid = witness
        ok = arith.andi(valid, _in_bounds(ctx, flat, length))
    return [ok, [ctx.gep(ptr, flat, elem)]]


@lowering(ops.GetUncheckedMutOp)
def lower_get_unchecked_mut(ctx: LoweringContext, op: ops.GetUncheckedMutOp) -> list:
    return [ctx.gep(ctx.parts(op.slice)[0], op.index, element_type_in(ctx, op.slice.type))]


@lowering(ops.RefLoadOp)
def lower_ref_load(ctx: LoweringContext, op: ops.RefLoadOp) -> ir.Value:
    return ctx.load(op.result.type, ctx.parts(op.ref)[0])


@lowering(ops.RefStoreOp)
def lower_ref_store(ctx: LoweringContext, op: ops.RefStoreOp) -> None:
    ctx.store(op.value, ctx.parts(op.ref)[0])


def _vector_address(ctx: LoweringContext, slice_value: ir.Value, index: ir.Value, vector: ir.Type) -> tuple:
    ptr, length = ctx.parts(slice_value)[:2]
    width = ir.VectorType(vector).shape[0]
    vectors = arith.divui(length, ctx.const("i64", width))
    ctx.trap_unless(_in_bounds(ctx, index, vectors))
    elem_bytes = ir.VectorType(vector).element_type.width // 8
    return ctx.gep(ptr, index, vector), width * elem_bytes


@lowering(ops.VectorLoadOp)
def lower_vector_load(ctx: LoweringContext, op: ops.VectorLoadOp) -> ir.Value:
    address, align = _vector_address(ctx, op.slice, op.index, op.result.type)
    return ctx.load(op.result.type, address, alignment=align, invariant=_invariant(op))


@lowering(ops.VectorStoreOp)
def lower_vector_store(ctx: LoweringContext, op: ops.VectorStoreOp) -> None:
    address, align = _vector_address(ctx, op.slice, op.index, op.value.type)
    ctx.store(op.value, address, alignment=align)


@lowering(ops.SlicePtrOp)
def lower_slice_ptr(ctx: LoweringContext, op: ops.SlicePtrOp) -> list:
    return [ctx.parts(op.slice)[0]]


@lowering(ops.ElemPtrOp)
def lower_elem_ptr(ctx: LoweringContext, op: ops.ElemPtrOp) -> list:
    ptr, length = ctx.parts(op.slice)
    ctx.trap_unless(_in_bounds(ctx, op.index, length))
    return [ctx.gep(ptr, op.index, element_type_in(ctx, op.slice.type))]


@lowering(ops.PtrOffsetOp)
def lower_ptr_offset(ctx: LoweringContext, op: ops.PtrOffsetOp) -> list:
    return [ctx.gep(ctx.parts(op.ptr)[0], op.offset, element_type_in(ctx, op.ptr.type))]


def _stated_alignment(op: Any) -> dict[str, int]:
    """The `alignment` flag of an access that states more than its natural alignment (`simt.align`)."""
    attrs = op.operation.attributes
    return {"alignment": python_value(attrs[ops.ALIGN_ATTR])} if ops.ALIGN_ATTR in attrs else {}


@lowering(ops.PtrLoadOp, ops.VolatileLoadOp)
def lower_ptr_load(ctx: LoweringContext, op: ops.PtrLoadOp) -> ir.Value:
    volatile = isinstance(op, ops.VolatileLoadOp) or None
    return ctx.load(op.result.type, ctx.parts(op.ptr)[0], volatile_=volatile, **_stated_alignment(op))


@lowering(ops.PtrStoreOp, ops.VolatileStoreOp)
def lower_ptr_store(ctx: LoweringContext, op: ops.PtrStoreOp) -> None:
    volatile = isinstance(op, ops.VolatileStoreOp) or None
    ctx.store(op.value, ctx.parts(op.ptr)[0], volatile_=volatile, **_stated_alignment(op))


@lowering(ops.PtrCastOp)
def lower_ptr_cast(ctx: LoweringContext, op: ops.PtrCastOp) -> list:
    # LLVM pointers are opaque: the element type lives only in the simt type.
    return [ctx.parts(op.ptr)[0]]


@lowering(ops.RefPtrOp)
def lower_ref_ptr(ctx: LoweringContext, op: ops.RefPtrOp) -> list:
    return [ctx.parts(op.ref)[0]]


@lowering(ops.SliceFromPtrOp)
def lower_slice_from_ptr(ctx: LoweringContext, op: ops.SliceFromPtrOp) -> list:
    return [ctx.parts(op.ptr)[0], ctx.i64(op.length)]


@lowering(ops.FieldPtrOp)
def lower_field_ptr(ctx: LoweringContext, op: ops.FieldPtrOp) -> list:
    # getelementptr p[0, field] over the struct type: LLVM's layout is the one the struct type declares.
    base = ctx.parts(op.ptr)[0]
    return [llvm.getelementptr(base.type, base, [], ir.DenseI32ArrayAttr.get([0, op.field]),
                               ir.TypeAttr.get(element_type_in(ctx, op.ptr.type)), llvm.GEPNoWrapFlags.inbounds)]


@lowering(ops.FromGenericOp)
def lower_from_generic(ctx: LoweringContext, op: ops.FromGenericOp) -> list:
    space = python_value(PtrType.parameters_of(op.result.type)[1])
    return [llvm.addrspacecast(ir.Type.parse(f"!llvm.ptr<{space}>"), ctx.parts(op.ptr)[0])]


@lowering(ops.RowWidthOp)
def lower_row_width(ctx: LoweringContext, op: ops.RowWidthOp) -> ir.Value:
    return ctx.parts(op.slice)[2]


@lowering(ops.WithRowWidthOp)
def lower_with_row_width(ctx: LoweringContext, op: ops.WithRowWidthOp) -> list:
    return [*ctx.parts(op.slice), op.width]
