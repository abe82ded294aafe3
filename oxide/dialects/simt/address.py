"""simt address ops: a raw pointer as an integer address and back (`p as usize`, `a as *mut T`).

Rust's pointer-to-integer cast gives the address every thread can use, which on NVIDIA GPUs is the
generic address: a shared or global pointer is first converted to the generic space (`cvta`), so a
shared pointer's integer is its generic address, as CUDA C's `(uintptr_t)p` gives. An integer cast back to a
pointer is therefore a generic pointer (address space 0).
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import AnyType, Is, Parametric
from oxide.ir.declare import Op, Operand, Result, VerifyError, python_value


@DIALECT.op
class PtrToIntOp(Op):
    """`p as usize` / `p as u64`: the generic address of a pointer of any address space."""

    mnemonic = "ptr_to_int"
    ptr = Operand(Parametric(PtrType, AnyType(), AnyType()))
    result = Result(Is("i64"))


@DIALECT.op
class IntToPtrOp(Op):
    """`a as *mut T` of an integer: the generic pointer (address space 0) at address `a`."""

    mnemonic = "int_to_ptr"
    address = Operand(Is("i64"))
    result = Result(Parametric(PtrType, AnyType(), AnyType()))

    def verify_(self) -> None:
        if python_value(PtrType.parameters_of(self.result.type)[1]) != 0:
            raise VerifyError("an integer address is a generic pointer (address space 0)")
