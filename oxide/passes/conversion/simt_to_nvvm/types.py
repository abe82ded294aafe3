"""How simt types lower: each becomes one or more LLVM-dialect values (its "parts")."""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.dialects.simt.tma import TensorMapType
from oxide.dialects.simt.types import (
    DisjointType, PtrType, RefType, SharedType, SliceMutType, SliceType, ThreadIndexType,
)
from oxide.ir.declare import python_value


def global_ptr() -> ir.Type:
    """!llvm.ptr<1>."""
    return ir.Type.parse("!llvm.ptr<1>")


def convert_type(t: ir.Type) -> list[ir.Type] | None:
    """The parts of a simt type, or None for types this conversion leaves alone.

    slice, slice_mut, disjoint  -> (ptr<1>, i64 len) [+ i32 row width for runtime 2-D disjoint slices]
    thread_index                -> (i64 value, i1 valid); runtime 2-D: (i64 row, i64 col, i1 valid)
    shared<T, N>                -> ptr<3>
    ptr<T, AS>                  -> ptr<AS>
    ref<T>                      -> ptr<1>
    tensor_map                  -> ptr (the descriptor's generic address; kernel.py passes it by value)
    """
    # Most values are builtin types: answer them without the declared-type checks, which print the type.
    if not str(t).startswith("!simt."):
        return None
    i1, i32, i64 = (ir.IntegerType.get_signless(w) for w in (1, 32, 64))
    if SliceType.isinstance(t) or SliceMutType.isinstance(t):
        return [global_ptr(), i64]
    if DisjointType.isinstance(t):
        space = python_value(DisjointType.parameters_of(t)[1])
        return [global_ptr(), i64, i32] if space == "runtime_2d" else [global_ptr(), i64]
    if ThreadIndexType.isinstance(t):
        space = python_value(ThreadIndexType.parameters_of(t)[0])
        return [i64, i64, i1] if space == "runtime_2d" else [i64, i1]
    if SharedType.isinstance(t):
        return [ir.Type.parse("!llvm.ptr<3>")]
    if PtrType.isinstance(t):
        return [ir.Type.parse(f"!llvm.ptr<{python_value(PtrType.parameters_of(t)[1])}>")]
    if RefType.isinstance(t):
        return [global_ptr()]
    if TensorMapType.isinstance(t):
        return [ir.Type.parse("!llvm.ptr")]
    return None


def element_type(t: ir.Type) -> ir.Type:
    """The element type T of slice<T>, slice_mut<T>, disjoint<T, S>, shared<T, N>, ptr<T, AS> or ref<T>."""
    for kind in (SliceType, SliceMutType, DisjointType, SharedType, PtrType, RefType):
        if kind.isinstance(t):
            return kind.parameters_of(t)[0]
    raise TypeError(f"{t} has no element type")


def element_type_in(ctx: Any, t: ir.Type) -> ir.Type:
    """element_type(t), remembered for the conversion run of `ctx` (a LoweringContext): a kernel's thousands
    of pointer ops share a few types, and reading a type's parameters parses its text."""
    key = ("element_type", t)
    if key not in ctx.type_facts:
        ctx.type_facts[key] = element_type(t)
    return ctx.type_facts[key]
