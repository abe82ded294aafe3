"""simt masked vector accesses: the first `count` of N strided elements read or written as one op.

`simt.masked_load(p, stride, count)` gives a vector<N x T> whose element k is `*(p + k * stride)` for
0 <= k < count and 0 for the others; `simt.masked_store(p, stride, count, v)` writes element k of `v` there
for k < count only. A count at or below 0 touches nothing, one at or above N every element. Addresses of
the elements not accessed are never formed into a memory access, so they may lie past an allocation.

They exist for the tile lowering's accesses at a tensor's edge, where each thread's run of N elements along
the innermost dimension is cut off at the extent: one predicate per run (the count) replaces N branches,
which keeps the IR every later pass and LLVM's optimiser sees small. Both lower to LLVM's masked
gather/scatter with the element's alignment, which its code generator expands into N predicated scalar
accesses (the same instructions N branches would give); they make no vector access (the caller takes a
separate vector path where a whole aligned run is inside).
"""

from __future__ import annotations

from mlir import ir

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import AnyType, Is, Parametric
from oxide.ir.declare import Op, Operand, Result, VerifyError

__all__ = ["MaskedLoadOp", "MaskedStoreOp"]

_ANY_PTR = Parametric(PtrType, AnyType(), AnyType())
# The widest run the tile lowering moves per thread (16 bytes of i8); more lanes gain nothing here.
MAX_LANES = 16


def check_masked_vector(ptr_type: ir.Type, vector_type: ir.Type, role: str) -> None:
    """A 1-D vector of 1 to MAX_LANES elements of the pointer's element type."""
    if not isinstance(vector_type, ir.VectorType):
        raise VerifyError(f"the {role} of a masked access is a vector<N x T>, not {vector_type}")
    vector = vector_type
    elem = PtrType.parameters_of(ptr_type)[0]
    if vector.rank != 1 or vector.scalable or not 1 <= vector.shape[0] <= MAX_LANES:
        raise VerifyError(f"the {role} of a masked access is a fixed 1-D vector of 1 to {MAX_LANES} elements, "
                          f"not {vector_type}")
    if vector.element_type != elem:
        raise VerifyError(f"the {role} holds {vector.element_type} but the pointer points to {elem}: "
                          f"cast the pointer (simt.ptr_cast) to the vector's element type")


@DIALECT.op
class MaskedLoadOp(Op):
    """`masked_load(p, stride, count)`: vector<N x T> of `*(p + k * stride)` for k < count, 0 past it.

    Lowered to LLVM's masked gather (N predicated scalar loads in PTX).
    """

    mnemonic = "masked_load"
    ptr = Operand(_ANY_PTR, "the first element's address")
    stride = Operand(Is("i64"), "elements between consecutive vector elements in memory")
    count = Operand(Is("i64"), "how many leading elements are read (clamped to 0..N)")
    result = Result(AnyType())

    def verify_(self) -> None:
        check_masked_vector(self.ptr.type, self.result.type, "result")


@DIALECT.op
class MaskedStoreOp(Op):
    """`masked_store(p, stride, count, v)`: `*(p + k * stride) = v[k]` for k < count only.

    Lowered to LLVM's masked scatter (N predicated scalar stores in PTX).
    """

    mnemonic = "masked_store"
    ptr = Operand(_ANY_PTR, "the first element's address")
    stride = Operand(Is("i64"), "elements between consecutive vector elements in memory")
    count = Operand(Is("i64"), "how many leading elements are written (clamped to 0..N)")
    value = Operand(AnyType(), "the vector to write")

    def verify_(self) -> None:
        check_masked_vector(self.ptr.type, self.value.type, "value")
