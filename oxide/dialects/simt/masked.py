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

`simt.guarded_load(p, pred)` gives the vector<N x T> of the N contiguous elements at p when `pred` holds and
zeros otherwise; `simt.guarded_store(p, pred, v)` writes them only when `pred` holds. T is 32 bits wide, N is
1, 2 or 4 and p is aligned to the whole run when `pred` holds (the caller ensures it). They become one
predicated PTX access (`@p ld.global.v4.b32`) with no branch around it, which is what the tile lowering's
straight-line kernels are made of (tile_to_simt/guarded.py says why).
"""

from __future__ import annotations

from mlir import ir

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import AnyOf, AnyType, Is, Parametric
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError

__all__ = ["GuardedLoadOp", "GuardedStoreOp", "MaskedLoadOp", "MaskedStoreOp"]

_ANY_PTR = Parametric(PtrType, AnyType(), AnyType())
# The widest run the tile lowering moves per thread (16 bytes of i8); more lanes gain nothing here.
MAX_LANES = 16
# A guarded access is one PTX vector access of 32-bit registers: .b32, .v2.b32 or .v4.b32.
GUARDED_LANES = (1, 2, 4)
_BOOL = AnyOf(Is("true"), Is("false"))


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


def check_guarded_vector(ptr_type: ir.Type, vector_type: ir.Type, role: str) -> None:
    """A vector of 1, 2 or 4 elements of the pointer's 32-bit element type, in global memory."""
    check_masked_vector(ptr_type, vector_type, role)
    vector = ir.VectorType(vector_type)
    width = getattr(vector.element_type, "width", None)
    if vector.shape[0] not in GUARDED_LANES or width != 32:
        raise VerifyError(f"the {role} of a guarded access is a vector of 1, 2 or 4 32-bit elements, not {vector_type}")
    if str(PtrType.parameters_of(ptr_type)[1]) not in ("1", "1 : i64"):
        raise VerifyError(f"a guarded access reads or writes global memory (address space 1), not {ptr_type}")


@DIALECT.op
class GuardedLoadOp(Op):
    """`guarded_load(p, pred)`: the N contiguous elements at p (aligned to the run) when `pred`, else zeros.

    Lowered to zeroing moves and one predicated vector load, with no branch; `readonly` reads through the
    non-coherent cache (`ld.global.nc`), for memory no thread of the kernel writes.
    """

    mnemonic = "guarded_load"
    ptr = Operand(_ANY_PTR, "the first element's address, aligned to the whole run")
    pred = Operand(Is("i1"), "whether to read (false: zeros, and no memory access)")
    readonly = Attr(_BOOL, "the memory is read-only for the whole kernel (ld.global.nc)")
    result = Result(AnyType())

    def verify_(self) -> None:
        check_guarded_vector(self.ptr.type, self.result.type, "result")


@DIALECT.op
class GuardedStoreOp(Op):
    """`guarded_store(p, pred, v)`: write the N elements of v at p (aligned to the run) when `pred` only.

    Lowered to one predicated vector store, with no branch.
    """

    mnemonic = "guarded_store"
    ptr = Operand(_ANY_PTR, "the first element's address, aligned to the whole run")
    pred = Operand(Is("i1"), "whether to write")
    value = Operand(AnyType(), "the vector to write")

    def verify_(self) -> None:
        check_guarded_vector(self.ptr.type, self.value.type, "value")
