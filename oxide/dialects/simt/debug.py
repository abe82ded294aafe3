"""simt debugging ops: `assert!` and `trap`. (printf is upstream `gpu.printf`; oxide.dialects.simt.printf
translates Rust format strings for it. Clocks are `simt.special_reg`.)"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.constraints import I1, STRING_ATTR
from oxide.ir.declare import Attr, Op, Operand, VerifyError


@DIALECT.op
class AssertOp(Op):
    """`assert!(cond, "message")`: when `cond` is false, report the message with the source file and line
    (CUDA's `__assertfail`) and stop the kernel; the launch then fails with CUDA_ERROR_ASSERT."""

    mnemonic = "assert"
    cond = Operand(I1, "the asserted condition")
    message = Attr(STRING_ATTR, "what the failure prints")

    def verify_(self) -> None:
        if not self.message:
            raise VerifyError("an assertion needs a message (Rust's default is \"assertion failed: <cond>\")")
        # The message becomes a C string: an embedded NUL would cut it short.
        if "\0" in self.message:
            raise VerifyError("an assertion message cannot contain a NUL character")


@DIALECT.op
class TrapOp(Op):
    """`core::intrinsics::abort()` / a panic with no message: stop the kernel at once (PTX `trap;`); the
    launch fails (an unspecified launch failure) and the context is unusable afterwards."""

    mnemonic = "trap"
