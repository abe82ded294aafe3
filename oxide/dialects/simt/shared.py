"""simt shared-memory ops: static shared arrays and dynamic shared memory (address space 3).

Every access needs `unsafe` in the source: all threads of a block see the same array, and only barriers
order their accesses."""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType, SharedType
from oxide.ir.constraints import INDEX, INTEGER_ATTR, AnyType, BaseOf, Parametric, TypeVar
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError, python_value


# The largest alignment of a shared array: 1024 bytes, the repeat of the 128-byte swizzle, so a TMA tile and
# a wgmma descriptor of that swizzle agree on where the pattern starts.
MAX_SHARED_ALIGN = 1024


def _check_align(align: int) -> None:
    if align <= 0 or align & (align - 1) or align > MAX_SHARED_ALIGN:
        raise VerifyError(f"alignment must be a power of two from 1 to {MAX_SHARED_ALIGN}, got {align}")


@DIALECT.op
class SharedArrayOp(Op):
    """`static mut A: SharedArray<T, N, ALIGN>`: a block-shared array, aligned to `align` bytes; each op
    is its own array (the lowering gives it a unique symbol).

    Lowers to one `.shared .align A` array per op; `align` is a power of two up to 1024 and `N > 0` (verified).
    """

    mnemonic = "shared_array"
    align = Attr(INTEGER_ATTR, "alignment in bytes: a power of two")
    result = Result(BaseOf(SharedType))

    def verify_(self) -> None:
        _check_align(self.align)
        _, count = SharedType.parameters_of(self.result.type)
        if python_value(count) <= 0:
            raise VerifyError(f"a shared array needs at least one element, got {python_value(count)}")
        _check_static_shared_total(self.operation)


# ptxas rejects a kernel whose static shared memory exceeds 48 KB; more needs dynamic shared memory.
STATIC_SHARED_LIMIT = 48 * 1024


def _array_bytes(op: Any) -> int | None:
    element, count = SharedType.parameters_of(op.result.type)
    if not isinstance(element, (ir.IntegerType, ir.FloatType)) and not hasattr(element, "width"):
        return None
    return (element.width + 7) // 8 * python_value(count)


def _check_static_shared_total(op: Any) -> None:
    """Report at the array whose addition takes its kernel past the static limit, naming all so far."""
    func = op.parent
    while func is not None and func.name not in ("gpu.func", "llvm.func", "func.func"):
        func = func.parent
    if func is None:
        return
    arrays: list[tuple[Any, int]] = []
    total = 0
    for block in func.regions[0].blocks:
        for candidate in _ops_under(block):
            if candidate.name == "simt.shared_array":
                size = _array_bytes(candidate)
                if size is None:
                    return
                arrays.append((candidate, size))
                total += size
                if total > STATIC_SHARED_LIMIT:
                    if candidate == op:
                        listed = ", ".join(f"{c.result.type} ({b} bytes)" for c, b in arrays)
                        raise VerifyError(f"the kernel's static shared memory is {total} bytes, over the "
                                          f"{STATIC_SHARED_LIMIT}-byte limit: {listed}; use dynamic shared memory "
                                          "(simt.dynamic_shared, sized at launch) for larger buffers")
                    return
                if candidate == op:  # arrays after this one cannot change its verdict: stop the walk here
                    return


def _ops_under(block: Any) -> Any:
    for child in block.operations:
        yield child.operation
        for region in child.operation.regions:
            for inner in region.blocks:
                yield from _ops_under(inner)


_SL_T = TypeVar("T")


@DIALECT.op
class SharedLoadOp(Op):
    """`A[i]`: a bounds-checked read of a shared array (traps when i >= N).

    The check folds away when the thread id's range proves the index in bounds.
    """

    mnemonic = "shared_load"
    array = Operand(Parametric(SharedType, _SL_T, AnyType()))
    index = Operand(INDEX)
    result = Result(_SL_T)


_SS_T = TypeVar("T")


@DIALECT.op
class SharedStoreOp(Op):
    """`A[i] = v`: a bounds-checked write to a shared array."""

    mnemonic = "shared_store"
    array = Operand(Parametric(SharedType, _SS_T, AnyType()))
    index = Operand(INDEX)
    value = Operand(_SS_T)


_SP_T = TypeVar("T")


@DIALECT.op
class SharedPtrOp(Op):
    """`A.as_mut_ptr()`: the shared array's base as a raw pointer in address space 3."""

    mnemonic = "shared_ptr"
    array = Operand(Parametric(SharedType, _SP_T, AnyType()))
    result = Result(Parametric(PtrType, _SP_T, AnyType()))

    def verify_(self) -> None:
        if python_value(PtrType.parameters_of(self.result.type)[1]) != 3:
            raise VerifyError("a shared array pointer is in the shared address space (3)")


@DIALECT.op
class DynamicSharedOp(Op):
    """`DynamicSharedArray::<T, ALIGN>::offset(bytes)`: the dynamic shared memory of the launch, `offset`
    bytes in, as a pointer in address space 3 (its size comes from the launch).

    Lowers to one `.extern .shared` array per gpu.module, with the largest alignment any op asks for.
    """

    mnemonic = "dynamic_shared"
    offset = Operand(INDEX, "byte offset")
    align = Attr(INTEGER_ATTR, "alignment of the base in bytes")
    result = Result(BaseOf(PtrType))

    def verify_(self) -> None:
        _check_align(self.align)
        if python_value(PtrType.parameters_of(self.result.type)[1]) != 3:
            raise VerifyError("dynamic shared memory is in the shared address space (3)")
