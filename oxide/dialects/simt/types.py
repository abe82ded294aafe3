"""simt types: slices (pointer + length), disjoint slices, thread-index witnesses, shared arrays; the dim attribute."""

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.constraints import INTEGER_ATTR, AnyType, one_of
from oxide.ir.declare import AttrDef, Param, TypeDef


@DIALECT.type
class SliceType(TypeDef):
    """A read-only slice `&[T]`: a global pointer and an element count."""

    mnemonic = "slice"
    elem = Param(AnyType(), "element type")


@DIALECT.type
class SliceMutType(TypeDef):
    """A mutable slice `&mut [T]` (only in unsafe kernels: nothing stops two threads writing one element)."""

    mnemonic = "slice_mut"
    elem = Param(AnyType(), "element type")


@DIALECT.type
class DisjointType(TypeDef):
    """`DisjointSlice<T>`: writable only through a thread-index witness, so no two threads share an element."""

    mnemonic = "disjoint"
    elem = Param(AnyType(), "element type")


@DIALECT.type
class ThreadIndexType(TypeDef):
    """A witness that a value is this thread's unique 1-D global index; it cannot be forged from an integer."""

    mnemonic = "thread_index"


@DIALECT.type
class SharedType(TypeDef):
    """`SharedArray<T, N>`: N elements of T in block-shared memory (address space 3)."""

    mnemonic = "shared"
    elem = Param(AnyType(), "element type")
    count = Param(INTEGER_ATTR, "element count")


@DIALECT.attribute
class DimAttr(AttrDef):
    """A grid or block dimension: `#simt.dim<"x">`, `"y"` or `"z"`."""

    mnemonic = "dim"
    axis = Param(one_of("x", "y", "z"), "the axis")
