"""simt memory ops: slices, disjoint slices through witnesses, element references, vectors, raw pointers.

Lowering: a slice is its (pointer, length) parts and `simt.len` is the length part. A checked access compares
`i < len` and traps otherwise; reads of `&[T]` are `ld.global.nc`, writes `st.global`, element references
`ld`/`st.global`. `ptr_cast`, `ref_ptr` and `slice_from_ptr` emit no code beyond (pointer, length).

Every access states its natural alignment, or a larger `simt.align` (whole-struct accesses of an over-aligned
`#[repr(align(N))]` struct, which LLVM merges into vector accesses). Loads from read-only slices are
`invariant` because the runtime refuses launches where a writable buffer overlaps any other buffer argument.
"""

from __future__ import annotations

from typing import Any

from mlir.dialects import llvm

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import (
    DisjointType, PtrType, RefType, SliceMutType, SliceType, ThreadIndexType, check_index_space,
)
from oxide.ir.constraints import I1, INDEX, INTEGER_ATTR, STRING_ATTR, AnyOf, AnyType, BaseOf, Is, Parametric, TypeVar
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError, python_value

_ANY_SLICE = AnyOf(BaseOf(SliceType), BaseOf(SliceMutType), BaseOf(DisjointType))


@DIALECT.op
class LenOp(Op):
    """`s.len()`: the element count of a slice, mutable slice or disjoint slice."""

    mnemonic = "len"
    slice = Operand(_ANY_SLICE)
    result = Result(INDEX)


_LOAD_T = TypeVar("T")


@DIALECT.op
class LoadOp(Op):
    """`s[i]`: a bounds-checked element read of a slice; an index past the end traps. Reads of read-only
    slices are `ld.global.nc`: no writable buffer of the launch overlaps them (checked at launch)."""

    mnemonic = "load"
    slice = Operand(AnyOf(Parametric(SliceType, _LOAD_T), Parametric(SliceMutType, _LOAD_T)))
    index = Operand(INDEX)
    result = Result(_LOAD_T)


_LOADU_T = TypeVar("T")


@DIALECT.op
class LoadUncheckedOp(Op):
    """`*s.get_unchecked(i)`: an element read without a bounds check (unsafe code, or
    `#[kernel(unchecked_indexing)]`)."""

    mnemonic = "load_unchecked"
    slice = Operand(AnyOf(Parametric(SliceType, _LOADU_T), Parametric(SliceMutType, _LOADU_T)))
    index = Operand(INDEX)
    result = Result(_LOADU_T)


_STORE_T = TypeVar("T")


@DIALECT.op
class StoreOp(Op):
    """`s[i] = v` on a `&mut [T]`: a bounds-checked write that traps past the end (unsafe kernels only)."""

    mnemonic = "store"
    slice = Operand(Parametric(SliceMutType, _STORE_T))
    index = Operand(INDEX)
    value = Operand(_STORE_T)


_STOREU_T = TypeVar("T")


@DIALECT.op
class StoreUncheckedOp(Op):
    """`s[i] = v` on a `&mut [T]` without the bounds check: what `oxide-version-bounds-checks` leaves where a
    check before the loop has proven every index in bounds."""

    mnemonic = "store_unchecked"
    slice = Operand(Parametric(SliceMutType, _STOREU_T))
    index = Operand(INDEX)
    value = Operand(_STOREU_T)


_GET_T = TypeVar("T")
_GET_SPACE = TypeVar("Space", STRING_ATTR)


@DIALECT.op
class GetMutOp(Op):
    """`out.get_mut(idx)`: this thread's own element of a disjoint slice. `ok` is false (the Option is
    None) when the witness is invalid for this launch or out of bounds; the witness's index space must be
    the slice's (an `Index2D<256>` witness cannot index an `Index2D<128>` slice).

    Lowers to `ok = valid && index < len` (runtime 2-D: and `col < width`).
    """

    mnemonic = "get_mut"
    slice = Operand(Parametric(DisjointType, _GET_T, _GET_SPACE))
    witness = Operand(Parametric(ThreadIndexType, _GET_SPACE))
    ok = Result(I1)
    ref = Result(Parametric(RefType, _GET_T))

    def verify_(self) -> None:
        check_index_space(DisjointType.parameters_of(self.slice.type)[1])


_GETU_T = TypeVar("T")


@DIALECT.op
class GetUncheckedMutOp(Op):
    """`out.get_unchecked_mut(i)`: an element reference with no bounds or uniqueness proof (unsafe)."""

    mnemonic = "get_unchecked_mut"
    slice = Operand(Parametric(DisjointType, _GETU_T, AnyType()))
    index = Operand(INDEX)
    ref = Result(Parametric(RefType, _GETU_T))


_REF_LOAD_T = TypeVar("T")


@DIALECT.op
class RefLoadOp(Op):
    """`*r`: read through an element reference."""

    mnemonic = "ref_load"
    ref = Operand(Parametric(RefType, _REF_LOAD_T))
    result = Result(_REF_LOAD_T)


_REF_STORE_T = TypeVar("T")


@DIALECT.op
class RefStoreOp(Op):
    """`*r = v`: write through an element reference."""

    mnemonic = "ref_store"
    ref = Operand(Parametric(RefType, _REF_STORE_T))
    value = Operand(_REF_STORE_T)


def _vector_width(vector_type: object, elem: object) -> None:
    text = str(vector_type)
    if not (text.startswith("vector<") and text.endswith(f"x{elem}>")) or text.count("x") != 1:
        raise VerifyError(f"expected a 1-D vector of {elem}, got {text}")
    width = int(text[len("vector<"):].split("x")[0])
    if width not in (2, 4) or width * _byte_width(str(elem)) > 16:
        raise VerifyError(f"vector accesses are 2 or 4 elements of at most 16 bytes in all, got {text}")


def _byte_width(elem: str) -> int:
    return {"f16": 2, "bf16": 2, "f32": 4, "i32": 4, "f64": 8, "i64": 8, "i8": 1, "i16": 2}.get(elem, 16)


@DIALECT.op
class VectorLoadOp(Op):
    """`s.as_vectors()[i]`: read the i-th aligned vector (f32x4, ...) of a slice, bounds-checked; the
    runtime guarantees the base alignment, so the access is one `ld.global.v4`.

    2 or 4 lanes, at most 16 bytes; the bounds check is against `len / lanes`; one `ld.global.nc.v4` on a
    read-only slice.
    """

    mnemonic = "vector_load"
    slice = Operand(AnyOf(BaseOf(SliceType), BaseOf(SliceMutType)))
    index = Operand(INDEX)
    result = Result(AnyType())

    def verify_(self) -> None:
        elem = (SliceType if SliceType.isinstance(self.slice.type) else SliceMutType).parameters_of(self.slice.type)[0]
        _vector_width(self.result.type, elem)


@DIALECT.op
class VectorStoreOp(Op):
    """`s.as_vectors_mut()[i] = v` on a `&mut [T]`: write the i-th aligned vector, bounds-checked.

    One `st.global.v4` (or `.v2`), checked against `len / lanes`.
    """

    mnemonic = "vector_store"
    slice = Operand(BaseOf(SliceMutType))
    index = Operand(INDEX)
    value = Operand(AnyType())

    def verify_(self) -> None:
        _vector_width(self.value.type, SliceMutType.parameters_of(self.slice.type)[0])


_PTR_T = TypeVar("T")


@DIALECT.op
class SlicePtrOp(Op):
    """`s.as_ptr()` / `s.as_mut_ptr()`: the slice's base as a raw global pointer."""

    mnemonic = "slice_ptr"
    slice = Operand(AnyOf(Parametric(SliceType, _PTR_T), Parametric(SliceMutType, _PTR_T),
                          Parametric(DisjointType, _PTR_T, AnyType())))
    result = Result(Parametric(PtrType, _PTR_T, AnyType()))

    def verify_(self) -> None:
        if python_value(PtrType.parameters_of(self.result.type)[1]) != 1:
            raise VerifyError("a slice pointer is in the global address space (1)")


_OFF_T = TypeVar("T")
_OFF_AS = TypeVar("AS", INTEGER_ATTR)


@DIALECT.op
class PtrOffsetOp(Op):
    """`p.add(i)` / `p.offset(i)`: advance a raw pointer by i elements (unsafe)."""

    mnemonic = "ptr_offset"
    ptr = Operand(Parametric(PtrType, _OFF_T, _OFF_AS))
    offset = Operand(INDEX)
    result = Result(Parametric(PtrType, _OFF_T, _OFF_AS))


_PL_T = TypeVar("T")


# A discardable attribute on ptr_load/ptr_store: the access's alignment in bytes where it is more than the
# natural alignment of the value type, e.g. the first f32 of a `#[repr(align(16))]` struct. The frontend
# reads and writes aggregates leaf by leaf; from these alignments LLVM merges the leaves of an over-aligned
# aggregate into vector accesses (`ld.global.nc.v4`, `st.global.v4` for a 16-byte-aligned `[f32; 4]`).
ALIGN_ATTR = "simt.align"
_MAX_ALIGN = 1 << 32  # LLVM's largest alignment (its alignment exponent is at most 32)


def _check_access_align(op: Op, value_type: Any) -> None:
    if ALIGN_ATTR not in op.operation.attributes:
        return
    align = python_value(op.operation.attributes[ALIGN_ATTR])
    if isinstance(align, bool) or not isinstance(align, int) or align <= 0 or align & (align - 1):
        raise VerifyError(f"{ALIGN_ATTR} must be a power-of-two integer, got {op.operation.attributes[ALIGN_ATTR]}")
    if align > _MAX_ALIGN:
        raise VerifyError(f"{ALIGN_ATTR} = {align} is above the largest alignment LLVM has (2^32 bytes)")
    width = getattr(value_type, "width", None)
    if isinstance(width, int) and align < width // 8:
        raise VerifyError(f"{ALIGN_ATTR} = {align} is below the natural alignment of {value_type} ({width // 8})")


@DIALECT.op
class PtrLoadOp(Op):
    """`*p` / `p.read()`: read through a raw pointer (unsafe); `simt.align` (optional) states a larger
    alignment of the address than the value type's."""

    mnemonic = "ptr_load"
    ptr = Operand(Parametric(PtrType, _PL_T, AnyType()))
    result = Result(_PL_T)

    def verify_(self) -> None:
        _check_access_align(self, self.result.type)


_PS_T = TypeVar("T")


@DIALECT.op
class PtrStoreOp(Op):
    """`*p = v` / `p.write(v)`: write through a raw pointer (unsafe); `simt.align` (optional) as for
    ptr_load."""

    mnemonic = "ptr_store"
    ptr = Operand(Parametric(PtrType, _PS_T, AnyType()))
    value = Operand(_PS_T)

    def verify_(self) -> None:
        _check_access_align(self, self.value.type)


_VL_T = TypeVar("T")


@DIALECT.op
class VolatileLoadOp(Op):
    """`p.read_volatile()`: a volatile read (`ld.volatile`), never merged or removed."""

    mnemonic = "volatile_load"
    ptr = Operand(Parametric(PtrType, _VL_T, AnyType()))
    result = Result(_VL_T)


_VS_T = TypeVar("T")


@DIALECT.op
class VolatileStoreOp(Op):
    """`p.write_volatile(v)`: a volatile write (`st.volatile`)."""

    mnemonic = "volatile_store"
    ptr = Operand(Parametric(PtrType, _VS_T, AnyType()))
    value = Operand(_VS_T)


_EP_T = TypeVar("T")


@DIALECT.op
class ElemPtrOp(Op):
    """`&s[i] as *const T`: a bounds-checked element address of a slice (traps past the end); how the
    element of a `&[DeviceAtomicU32]` reaches the atomic ops."""

    mnemonic = "elem_ptr"
    slice = Operand(AnyOf(Parametric(SliceType, _EP_T), Parametric(SliceMutType, _EP_T)))
    index = Operand(INDEX)
    result = Result(Parametric(PtrType, _EP_T, AnyType()))

    def verify_(self) -> None:
        if python_value(PtrType.parameters_of(self.result.type)[1]) != 1:
            raise VerifyError("a slice element is in the global address space (1)")


_CAST_AS = TypeVar("AS", INTEGER_ATTR)


@DIALECT.op
class PtrCastOp(Op):
    """`p as *mut U`: the same address as a pointer to another element type, in the same address space."""

    mnemonic = "ptr_cast"
    ptr = Operand(Parametric(PtrType, AnyType(), _CAST_AS))
    result = Result(Parametric(PtrType, AnyType(), _CAST_AS))


_REFPTR_T = TypeVar("T")


@DIALECT.op
class RefPtrOp(Op):
    """`r as *mut T` for an element reference `r: &mut T`: its address as a raw global pointer."""

    mnemonic = "ref_ptr"
    ref = Operand(Parametric(RefType, _REFPTR_T))
    result = Result(Parametric(PtrType, _REFPTR_T, AnyType()))

    def verify_(self) -> None:
        if python_value(PtrType.parameters_of(self.result.type)[1]) != 1:
            raise VerifyError("an element reference points into global memory (address space 1)")


_MAKE_T = TypeVar("T")


@DIALECT.op
class SliceFromPtrOp(Op):
    """`slice::from_raw_parts(p, n)`, `from_raw_parts_mut`, `DisjointSlice::from_raw_parts` (all unsafe):
    a slice of n elements starting at a global pointer."""

    mnemonic = "slice_from_ptr"
    ptr = Operand(Parametric(PtrType, _MAKE_T, AnyType()))
    length = Operand(INDEX)
    result = Result(AnyOf(Parametric(SliceType, _MAKE_T), Parametric(SliceMutType, _MAKE_T),
                          Parametric(DisjointType, _MAKE_T, AnyType())))

    def verify_(self) -> None:
        if python_value(PtrType.parameters_of(self.ptr.type)[1]) != 1:
            raise VerifyError("a slice is built from a global pointer (address space 1)")
        if DisjointType.isinstance(self.result.type):
            space = check_index_space(DisjointType.parameters_of(self.result.type)[1])
            if space == "runtime_2d":
                raise VerifyError("a runtime 2-D disjoint slice also needs its row width; build it from a kernel parameter")


_FIELD_AS = TypeVar("AS", INTEGER_ATTR)


@DIALECT.op
class FieldPtrOp(Op):
    """`&(*p).f`: the address of field `field` of the `!llvm.struct` a pointer points to, in the same
    address space. Structs and tuples in memory (elements of slices, DisjointSlices, shared arrays and raw
    pointers) are laid out as their `!llvm.struct` element type says: fields in order, each at its natural
    alignment."""

    mnemonic = "field_ptr"
    ptr = Operand(Parametric(PtrType, AnyType(), _FIELD_AS))
    field = Attr(INTEGER_ATTR, "the field's position in the struct")
    result = Result(Parametric(PtrType, AnyType(), _FIELD_AS))

    def verify_(self) -> None:
        struct = PtrType.parameters_of(self.ptr.type)[0]
        if not isinstance(struct, llvm.StructType):
            raise VerifyError(f"field_ptr needs a pointer to an !llvm.struct, got {struct}")
        body = list(llvm.StructType(struct).body)
        if not 0 <= self.field < len(body):
            raise VerifyError(f"field {self.field} is out of range for {struct} ({len(body)} fields)")
        got = PtrType.parameters_of(self.result.type)[0]
        if str(got) != str(body[self.field]):
            raise VerifyError(f"field {self.field} of {struct} is {body[self.field]}, but the result points to {got}")




_GENERIC_T = TypeVar("T")


@DIALECT.op
class FromGenericOp(Op):
    """A generic pointer (address space 0, e.g. from `simt.int_to_ptr`) as a pointer into address space 1 or
    3 (`cvta.to`): how an address kept as an integer becomes a global or shared pointer again."""

    mnemonic = "from_generic"
    ptr = Operand(Parametric(PtrType, _GENERIC_T, Is("0 : i64")))
    result = Result(Parametric(PtrType, _GENERIC_T, AnyType()))

    def verify_(self) -> None:
        if python_value(PtrType.parameters_of(self.result.type)[1]) not in (1, 3):
            raise VerifyError("from_generic converts to the global (1) or shared (3) address space")


@DIALECT.op
class RowWidthOp(Op):
    """`s.row_width()` of a runtime 2-D disjoint slice: the elements per row that its witnesses address with."""

    mnemonic = "row_width"
    slice = Operand(Parametric(DisjointType, AnyType(), Is('"runtime_2d"')))
    result = Result(Is("i32"))


_WIDTH_T = TypeVar("T")


@DIALECT.op
class WithRowWidthOp(Op):
    """`DisjointSlice::from_raw_parts_with_space(p, len, width)` of a runtime 2-D slice (unsafe): the elements of
    a 1-D disjoint slice (built by slice_from_ptr), addressed by runtime 2-D witnesses with `width` elements per
    row."""

    mnemonic = "with_row_width"
    slice = Operand(Parametric(DisjointType, _WIDTH_T, Is('"1d"')))
    width = Operand(Is("i32"))
    result = Result(Parametric(DisjointType, _WIDTH_T, Is('"runtime_2d"')))
