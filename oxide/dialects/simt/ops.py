"""simt ops: the first slice of the device API (indices, witnesses, slice access, shared memory)."""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import DimAttr, DisjointType, SharedType, SliceMutType, SliceType, ThreadIndexType
from oxide.ir.constraints import INDEX, INTEGER_ATTR, AnyOf, BaseOf, Parametric, TypeVar
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError, python_value


class _DimQuery(Op):
    """A per-axis launch coordinate (the base of thread_id, block_id, block_dim, grid_dim)."""

    dim = Attr(BaseOf(DimAttr), "which axis")
    result = Result(INDEX)


@DIALECT.op
class ThreadIdOp(_DimQuery):
    """`threadIdx.<dim>`: this thread's index inside its block."""

    mnemonic = "thread_id"


@DIALECT.op
class BlockIdOp(_DimQuery):
    """`blockIdx.<dim>`: this block's index inside the grid."""

    mnemonic = "block_id"


@DIALECT.op
class BlockDimOp(_DimQuery):
    """`blockDim.<dim>`: threads per block along the axis."""

    mnemonic = "block_dim"


@DIALECT.op
class GridDimOp(_DimQuery):
    """`gridDim.<dim>`: blocks per grid along the axis."""

    mnemonic = "grid_dim"


@DIALECT.op
class Index1DOp(Op):
    """`thread::index_1d()`: the witness of this thread's global 1-D index (blockIdx.x * blockDim.x + threadIdx.x)."""

    mnemonic = "index_1d"
    result = Result(BaseOf(ThreadIndexType))


@DIALECT.op
class IndexValueOp(Op):
    """`idx.get()`: the integer value of a thread-index witness."""

    mnemonic = "index_value"
    witness = Operand(BaseOf(ThreadIndexType))
    result = Result(INDEX)


@DIALECT.op
class LenOp(Op):
    """`s.len()`: the element count of a slice, mutable slice or disjoint slice."""

    mnemonic = "len"
    slice = Operand(AnyOf(BaseOf(SliceType), BaseOf(SliceMutType), BaseOf(DisjointType)))
    result = Result(INDEX)


_LOAD_ELEM = TypeVar("T")


@DIALECT.op
class LoadOp(Op):
    """`s[i]`: a bounds-checked element read; an index past the end traps."""

    mnemonic = "load"
    slice = Operand(AnyOf(Parametric(SliceType, _LOAD_ELEM), Parametric(SliceMutType, _LOAD_ELEM)))
    index = Operand(INDEX)
    result = Result(_LOAD_ELEM)


_STORE_ELEM = TypeVar("T")


@DIALECT.op
class DisjointStoreOp(Op):
    """`*out.get_mut(idx) = v`: write this thread's own element of a disjoint slice, if in bounds."""

    mnemonic = "disjoint_store"
    slice = Operand(Parametric(DisjointType, _STORE_ELEM))
    witness = Operand(BaseOf(ThreadIndexType))
    value = Operand(_STORE_ELEM)


@DIALECT.op
class SharedArrayOp(Op):
    """`static mut A: SharedArray<T, N, ALIGN>`: a block-shared array, aligned to `align` bytes."""

    mnemonic = "shared_array"
    align = Attr(INTEGER_ATTR, "alignment in bytes: a power of two")
    result = Result(BaseOf(SharedType))

    def verify_(self) -> None:
        align = self.align
        if align <= 0 or align & (align - 1):
            raise VerifyError(f"alignment must be a positive power of two, got {align}")
        _, count = SharedType.parameters_of(self.result.type)
        if python_value(count) <= 0:
            raise VerifyError(f"a shared array needs at least one element, got {python_value(count)}")
