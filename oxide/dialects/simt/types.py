"""simt types and attributes: slices, disjoint slices and their index spaces, thread-index witnesses,
shared arrays, raw pointers and element references; the axis attribute.

How each type lowers, as a kernel parameter too: `!simt.slice<T>` to `(ptr<1> noalias readonly, i64 len)`,
whose loads are `ld.global.nc`; `!simt.slice_mut<T>` to `(ptr<1> noalias, i64 len)`; `!simt.disjoint<T,
space>` to `(ptr<1> noalias, i64 len)`, plus an `i32` row width for `"runtime_2d"`;
`!simt.thread_index<space>` to `(i64 value, i1 valid)`, a runtime 2-D one to `(i64 row, i64 col, i1 valid)`;
`!simt.ref<T>` to `ptr<1>`; `!simt.ptr<T, AS>` to `ptr<AS>`; `!simt.shared<T, N>` to a `.shared` global of the
gpu.module.

Index spaces are `"1d"` (`Index1D`), `"2d:S"` (`Index2D<S>`, the stride in the type), `"runtime_2d"`
(`Runtime2DIndex`: row and column resolved against the addressed slice's row width) and `"warp"`
(`WarpIndex`). A witness indexes only a disjoint slice of the same space: `get_mut` of an `Index2D<128>` slice
with an `Index2D<256>` witness is a verifier error.
"""

from __future__ import annotations

import re

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.constraints import INTEGER_ATTR, STRING_ATTR, AnyType, one_of
from oxide.ir.declare import AttrDef, Param, TypeDef, VerifyError, python_value

# An index space names how a witness maps threads to elements: "1d" (Index1D), "2d:<S>" (Index2D<S>,
# stride S in the type), "runtime_2d" (row and column resolved against the slice's row width) and
# "warp" (one element per warp). A witness indexes only a disjoint slice of the same space.
_SPACE = re.compile(r"1d|2d:([1-9][0-9]*)|runtime_2d|warp")


def check_index_space(space: object) -> str:
    """The index-space string of a type parameter; VerifyError when it is not one."""
    text = python_value(space) if not isinstance(space, str) else space
    if not isinstance(text, str) or not _SPACE.fullmatch(text):
        raise VerifyError(f"unknown index space {space}: expected \"1d\", \"2d:<stride>\", \"runtime_2d\" or \"warp\"")
    return text


def space_stride(space: str) -> int | None:
    """The constant row stride of a "2d:<S>" space, else None."""
    match = _SPACE.fullmatch(space)
    return int(match.group(1)) if match and match.group(1) else None


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
    """`DisjointSlice<T, Space>`: written only through a witness of the same index space, so no two
    threads share an element. Runtime 2-D slices also carry their row width."""

    mnemonic = "disjoint"
    elem = Param(AnyType(), "element type")
    space = Param(STRING_ATTR, "index space")


@DIALECT.type
class ThreadIndexType(TypeDef):
    """`ThreadIndex<Space>`: a witness that a value is this thread's own index in an index space. It is
    minted only from hardware registers, carries whether it is valid for this launch, and cannot be
    forged from an integer."""

    mnemonic = "thread_index"
    space = Param(STRING_ATTR, "index space")


@DIALECT.type
class SharedType(TypeDef):
    """`SharedArray<T, N>`: N elements of T in block-shared memory (address space 3)."""

    mnemonic = "shared"
    elem = Param(AnyType(), "element type")
    count = Param(INTEGER_ATTR, "element count")


@DIALECT.type
class PtrType(TypeDef):
    """A raw pointer `*mut T` into an address space (0 generic, 1 global, 3 shared); unsafe to use."""

    mnemonic = "ptr"
    elem = Param(AnyType(), "element type")
    space = Param(INTEGER_ATTR, "address space")


@DIALECT.type
class RefType(TypeDef):
    """`&mut T` to one element of global memory, as `get_mut` yields it."""

    mnemonic = "ref"
    elem = Param(AnyType(), "element type")


@DIALECT.attribute
class DimAttr(AttrDef):
    """A grid or block dimension: `#simt.dim<"x">`, `"y"` or `"z"`."""

    mnemonic = "dim"
    axis = Param(one_of("x", "y", "z"), "the axis")
