"""simt asynchronous copies (sm_80): `cp.async` of 4, 8 or 16 bytes from global to shared memory, completed
through per-thread groups.

A thread's `simt.cp_async` ops since its last `simt.cp_async_commit_group` form its next group when it
commits; `simt.cp_async_wait_group {pending = N}` waits until at most the N most recent groups this thread
committed are still in flight (every older one has landed). The copied bytes are then visible to the thread
that issued them; other threads see them after a block barrier. A copy with `src_size` below its size reads
only the first `src_size` bytes and writes zeros to the rest (0 reads nothing): that is how tiles at a
tensor's edge are zero-padded without reading past it.

Verification: both pointers are checked by space (shared destination, global source) in words, the size is
4, 8 or 16 bytes and a whole number of elements, and a constant `src_size` is at most the size. The
addresses must be aligned to the size at run time (the emulator checks it; the GPU faults). The chip is
checked where the ops lower: every one needs sm_80.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import INTEGER_ATTR, AnyType, Is, Parametric
from oxide.ir.declare import Attr, Op, Operand, OptOperand, VerifyError, int_value
from oxide.ir.rules import is_op

__all__ = ["CpAsyncOp", "CpAsyncCommitGroupOp", "CpAsyncWaitGroupOp"]

COPY_SIZES = (4, 8, 16)
# The NVVM op takes the group count as an i32.
MAX_PENDING_GROUPS = (1 << 31) - 1
_SPACE_NAMES = {0: "generic", 1: "global", 3: "shared", 4: "constant", 5: "local", 7: "shared::cluster"}
_ELEMENT_BYTES = {"i8": 1, "i16": 2, "f16": 2, "bf16": 2, "i32": 4, "f32": 4, "i64": 8, "f64": 8}
_ANY_PTR = Parametric(PtrType, AnyType(), AnyType())


def _check_space(ptr_type: ir.Type, space: int, role: str) -> None:
    actual = int_value(PtrType.parameters_of(ptr_type)[1])
    if actual != space:
        where = _SPACE_NAMES.get(actual, f"address space {actual}")
        raise VerifyError(f"cp.async copies from global to shared memory: the {role} must be a "
                          f"!simt.ptr<_, {space}> ({_SPACE_NAMES[space]}), not a {where} pointer ({ptr_type})")


@DIALECT.op
class CpAsyncOp(Op):
    """`cp_async(dst, src, bytes[, src_size])`: start copying `bytes` (4, 8 or 16) from global memory at `src`
    to shared memory at `dst`; with `src_size`, only its first `src_size` bytes are read and the rest of `dst`
    is zero-filled. Both addresses must be `bytes`-aligned. The copy joins this thread's next commit group.

    PTX `cp.async.{ca,cg}.shared.global [dst], [src], bytes[, src_size]` (sm_80; 16-byte copies bypass L1).
    """

    mnemonic = "cp_async"
    dst = Operand(_ANY_PTR, "where the bytes land, in shared memory")
    src = Operand(_ANY_PTR, "where they come from, in global memory")
    src_size = OptOperand(Is("i32"), "bytes actually read (the rest is zero-filled); all of them when absent")
    bytes = Attr(INTEGER_ATTR, "the copy's size: 4, 8 or 16 bytes")

    def verify_(self) -> None:
        size = self.bytes
        if isinstance(size, bool) or size not in COPY_SIZES:
            raise VerifyError(f"a cp.async copies 4, 8 or 16 bytes, not {size}")
        _check_space(self.dst.type, 3, "destination")
        _check_space(self.src.type, 1, "source")
        elem = str(PtrType.parameters_of(self.dst.type)[0])
        element = _ELEMENT_BYTES.get(elem)
        if element is not None and size % element:
            raise VerifyError(f"a cp.async of {size} bytes is not a whole number of {elem} elements")
        limit = self._constant_src_size()
        if limit is not None and not 0 <= limit <= size:
            raise VerifyError(f"cp.async src_size must be 0..{size} (the bytes to read of the {size} copied), "
                              f"got {limit}")

    def _constant_src_size(self) -> int | None:
        value = self.src_size
        if value is None:
            return None
        owner = value.owner
        if isinstance(owner, ir.OpView | ir.Operation) and is_op(owner.operation, arith.ConstantOp):
            return int_value(owner.operation.attributes["value"])
        return None


@DIALECT.op
class CpAsyncCommitGroupOp(Op):
    """`cp_async_commit_group()`: close the group of the cp.async copies this thread issued since its last
    commit (an empty group when there were none).

    PTX `cp.async.commit_group` (sm_80).
    """

    mnemonic = "cp_async_commit_group"


@DIALECT.op
class CpAsyncWaitGroupOp(Op):
    """`cp_async_wait_group(n)`: wait until at most `pending` of this thread's most recently committed cp.async
    groups are still in flight; every older group has landed and is visible to this thread (to the others
    after a block barrier). `pending = 0` waits for all of them.

    PTX `cp.async.wait_group N` (sm_80).
    """

    mnemonic = "cp_async_wait_group"
    pending = Attr(INTEGER_ATTR, "how many of the most recent groups may still be in flight")

    def verify_(self) -> None:
        pending = self.pending
        if isinstance(pending, bool) or not isinstance(pending, int) or not 0 <= pending <= MAX_PENDING_GROUPS:
            raise VerifyError(f"the pending group count must be 0..{MAX_PENDING_GROUPS}, got {pending}")
