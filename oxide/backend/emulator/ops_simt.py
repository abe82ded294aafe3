"""Emulator rules for the simt dialect's indexing, memory and shared-memory ops (runtime side:
oxide.runtime.emulator.access)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from mlir import ir

from oxide.backend.emulator import aggregates
from oxide.backend.emulator.emitter import (
    KernelEmitter,
    element_type,
    np_type,
    numpy_dtype,
)
from oxide.backend.emulator.rules import rule
from oxide.dialects import simt
from oxide.ir.rules import LoweringError, OpMap, is_op
from oxide.ir.declare import int_value

_AXES = {"x": 0, "y": 1, "z": 2}
_DIMS = OpMap({simt.ThreadIdOp: "c.tid", simt.BlockIdOp: "c.bid", simt.BlockDimOp: "c.bdim", simt.GridDimOp: "c.gdim"})


def _string(op: Any, name: str) -> str:
    return ir.StringAttr(op.attributes[name]).value


def _axis(op: Any) -> int:
    match = re.search(r'"([xyz])"', str(op.attributes["dim"]))
    if match is None:
        raise LoweringError(f"internal error: bad dim attribute {op.attributes['dim']}", op)
    return _AXES[match.group(1)]


@rule(*_DIMS.classes)
def emit_dim_query(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = {_DIMS[op]}[{_axis(op)}]")


@rule(simt.SpecialRegOp)
def emit_special_reg(em: KernelEmitter, op: Any) -> None:
    reg = _string(op, "reg")
    if reg.startswith(("cluster", "nclusterid")):  # the launch's cluster shape (oxide.runtime.emulator.clusters)
        em.line(f"{em.result(op)} = _cl.register(c, {reg!r})")
        return
    em.line(f"{em.result(op)} = c.special_reg({reg!r})")


def _proven(em: KernelEmitter, max_domain: int) -> bool:
    domain = em.contract_int("domain")
    return domain is not None and domain <= max_domain


@rule(simt.Index1DOp, simt.Index1DU32Op)
def emit_index_1d(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = _mem.index_1d(c, {_proven(em, 1)})")


@rule(simt.Index2DOp)
def emit_index_2d(em: KernelEmitter, op: Any) -> None:
    match = re.search(r'"2d:(\d+)"', str(op.results[0].type))
    if match is None:
        raise LoweringError(f"internal error: index_2d of type {op.results[0].type}", op)
    em.line(f"{em.result(op)} = _mem.index_2d(c, {int(match.group(1))}, {_proven(em, 2)})")


@rule(simt.Index2DRuntimeOp)
def emit_index_2d_runtime(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = _mem.index_2d_runtime(c, {_proven(em, 2)})")


@rule(simt.WarpIndexOp)
def emit_warp_index(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = _mem.warp_index(c, {_proven(em, 1)})")


_WITNESS_PARTS = OpMap({simt.IndexValueOp: "value", simt.IndexValidOp: "valid", simt.IndexRowOp: "row",
                        simt.IndexColOp: "col"})


@rule(*_WITNESS_PARTS.classes)
def emit_witness_part(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = {em.args(op)[0]}.{_WITNESS_PARTS[op]}")


# Slices, references, pointers -------------------------------------------------------------------------
@rule(simt.LenOp)
def emit_len(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = _mem.length({em.args(op)[0]})")


@rule(simt.RowWidthOp)
def emit_row_width(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = {np_type(op.results[0].type, op)}({em.args(op)[0]}.width)")


@rule(simt.WithRowWidthOp)
def emit_with_row_width(em: KernelEmitter, op: Any) -> None:
    buffer, width = em.args(op)
    em.line(f"{em.result(op)} = _mem.with_row_width(c, {buffer}, {width}, {em.loc(op)})")


@rule(simt.LoadOp, simt.LoadUncheckedOp, simt.SharedLoadOp)
def emit_load(em: KernelEmitter, op: Any) -> None:
    buffer, index = em.args(op)
    checked = not is_op(op, simt.LoadUncheckedOp)
    em.line(f"{em.result(op)} = _mem.load(c, {em.mask}, {buffer}, {index}, {em.loc(op)}, {checked})")


@rule(simt.StoreOp, simt.SharedStoreOp, simt.StoreUncheckedOp)
def emit_store(em: KernelEmitter, op: Any) -> None:
    buffer, index, value = em.args(op)
    checked = not is_op(op, simt.StoreUncheckedOp)
    em.line(f"_mem.store(c, {em.mask}, {buffer}, {index}, {value}, {em.loc(op)}, {checked})")


@rule(simt.GetMutOp)
def emit_get_mut(em: KernelEmitter, op: Any) -> None:
    buffer, witness = em.args(op)
    em.line(f"{em.result(op, 0)}, {em.result(op, 1)} = _mem.get_mut(c, {buffer}, {witness})")


@rule(simt.GetUncheckedMutOp, simt.ElemPtrOp)
def emit_elem_ptr(em: KernelEmitter, op: Any) -> None:
    buffer, index = em.args(op)
    em.line(f"{em.result(op)} = _mem.elem_ptr(c, {em.mask}, {buffer}, {index}, {em.loc(op)})")


def _vector_width(type_: Any) -> int | None:
    """N for vector<NxT> (a value, or a pointer's element type), else None."""
    match = re.search(r"vector<(\d+)x\w+>", str(type_))
    return int(match.group(1)) if match is not None else None


@rule(simt.RefLoadOp, simt.PtrLoadOp, simt.VolatileLoadOp)
def emit_ptr_load(em: KernelEmitter, op: Any) -> None:
    (ptr,) = em.args(op)
    width = _vector_width(op.results[0].type)
    if width is not None:
        # A vector pointer here counts scalar elements (see simt.ptr_cast): one row of `width` per lane.
        em.line(f"{em.result(op)} = np.stack([c.broadcast(_mem.ptr_load(c, {em.mask}, _mem.Ptr({ptr}.buffer, "
                f"{ptr}.offset + k), {em.loc(op)})) for k in range({width})], axis=1)")
        return
    em.line(f"{em.result(op)} = _mem.ptr_load(c, {em.mask}, {ptr}, {em.loc(op)})")


@rule(simt.RefStoreOp, simt.PtrStoreOp, simt.VolatileStoreOp)
def emit_ptr_store(em: KernelEmitter, op: Any) -> None:
    ptr, value = em.args(op)
    width = _vector_width(op.operands[1].type)
    if width is not None:
        em.line(f"for k in range({width}):")
        em.line(f"    _mem.ptr_store(c, {em.mask}, _mem.Ptr({ptr}.buffer, {ptr}.offset + k), {value}[:, k], "
                f"{em.loc(op)})")
        return
    em.line(f"_mem.ptr_store(c, {em.mask}, {ptr}, {value}, {em.loc(op)})")


@rule(simt.SlicePtrOp, simt.SharedPtrOp)
def emit_slice_ptr(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = _mem.Ptr({em.args(op)[0]}, np.int64(0))")


def _pointee(type_: Any) -> str:
    """The element type of a `!simt.ptr<T, AS>` as written (T may be an LLVM struct or array)."""
    return str(type_)[len("!simt.ptr<"):].rsplit(",", 1)[0].strip()


def _scalars(element: str, op: Any) -> tuple[str, int]:
    """(the scalar type, how many of it) an aggregate element is held as in emulated memory."""
    try:
        scalar = aggregates.scalar_of(element)
    except ValueError as exc:
        raise LoweringError(str(exc), op) from None
    return scalar, aggregates.units(element, scalar)


@rule(simt.PtrOffsetOp)
def emit_ptr_offset(em: KernelEmitter, op: Any) -> None:
    ptr, count = em.args(op)
    element = _pointee(op.operands[0].type)
    # Offsets count the buffer's scalars: a step over a struct or array element is that many of them.
    step = _scalars(element, op)[1] if aggregates.is_aggregate(element) else 1
    scaled = f"{count}.astype(np.int64)" + (f" * {step}" if step != 1 else "")
    em.line(f"{em.result(op)} = _mem.Ptr({ptr}.buffer, {ptr}.offset + {scaled})")


@rule(simt.FieldPtrOp)
def emit_field_ptr(em: KernelEmitter, op: Any) -> None:
    (ptr,) = em.args(op)
    struct = _pointee(op.operands[0].type)
    scalar, _ = _scalars(struct, op)
    units = aggregates.field_units(struct, int_value(op.attributes["field"]), scalar)
    em.line(f"{em.result(op)} = _mem.Ptr({ptr}.buffer, {ptr}.offset + {units})" if units else
            f"{em.result(op)} = {ptr}")


@rule(simt.PtrCastOp)
def emit_ptr_cast(em: KernelEmitter, op: Any) -> None:
    (ptr,) = em.args(op)
    if aggregates.is_aggregate(_pointee(op.results[0].type)):
        # To a struct or array: the buffer stays as it is held, the scalars of the aggregate.
        em.line(f"{em.result(op)} = {ptr}")
        return
    if _vector_width(op.results[0].type) is not None:
        # A pointer to vectors of the same scalars: the emulator keeps its offset in scalar elements, so only
        # loads and stores through it (not ptr_offset) are emulated.
        em.line(f"{em.result(op)} = {ptr}")
        return
    dtype = np_type(element_type(op.results[0].type), op)
    em.line(f"{em.result(op)} = _mem.ptr_cast(c, {ptr}, {dtype}, {em.loc(op)})")


@rule(simt.RefPtrOp)
def emit_ref_ptr(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = {em.args(op)[0]}")


@rule(simt.SliceFromPtrOp)
def emit_slice_from_ptr(em: KernelEmitter, op: Any) -> None:
    ptr, count = em.args(op)
    element = _pointee(op.operands[0].type)
    unit = _scalars(element, op)[1] if aggregates.is_aggregate(element) else 1
    em.line(f"{em.result(op)} = _mem.slice_from_ptr(c, {ptr}, {count}, {em.loc(op)}, {unit})")


# Shared memory ----------------------------------------------------------------------------------------
@rule(simt.SharedArrayOp)
def emit_shared_array(em: KernelEmitter, op: Any) -> None:
    match = re.fullmatch(r"!simt\.shared<(\w+), (\d+)(?: : i64)?>", str(op.results[0].type))
    if match is None:
        raise LoweringError(f"the emulator cannot allocate shared memory of type {op.results[0].type}", op)
    em.shared_count += 1
    size = int(match.group(2)) * np.dtype(numpy_dtype(match.group(1), op)).itemsize
    em.shared_layout.append((size, int_value(op.attributes["align"])))
    name = f"#{em.shared_count} (declared at {em.locs.entries[em.loc(op)]})"
    em.line(f"{em.result(op)} = c.shared_array({em.shared_count}, {np_type(match.group(1), op)}, "
            f"{int(match.group(2))}, {name!r})")


@rule(simt.DynamicSharedOp)
def emit_dynamic_shared(em: KernelEmitter, op: Any) -> None:
    dtype = np_type(element_type(op.results[0].type), op)
    em.dynamic_align = max(em.dynamic_align, int_value(op.attributes["align"]))
    em.line(f"{em.result(op)} = c.dynamic_shared({em.args(op)[0]}, {dtype})")


def _lanes_per_vector(op: Any, vector: Any) -> int:
    match = re.fullmatch(r"vector<(\d+)x\w+>", str(vector.type))
    if match is None:
        raise LoweringError(f"internal error: {vector.type} is not a vector", op)
    return int(match.group(1))


@rule(simt.VectorLoadOp)
def emit_vector_load(em: KernelEmitter, op: Any) -> None:
    buffer, index = em.args(op)
    width = _lanes_per_vector(op, op.results[0])
    em.line(f"{em.result(op)} = _mem.vector_load(c, {em.mask}, {buffer}, {index}, {width}, {em.loc(op)})")


@rule(simt.VectorStoreOp)
def emit_vector_store(em: KernelEmitter, op: Any) -> None:
    buffer, index, value = em.args(op)
    width = _lanes_per_vector(op, op.operands[2])
    em.line(f"_mem.vector_store(c, {em.mask}, {buffer}, {index}, {value}, {width}, {em.loc(op)})")
