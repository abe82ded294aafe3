"""simt debugging ops: `assert!`, `trap` and `printf` (CUDA's `vprintf`, with its return value;
oxide.dialects.simt.printf translates Rust format strings for it. Clocks are `simt.special_reg`.)"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.constraints import I1, STRING_ATTR, Is
from oxide.ir.declare import Attr, Op, Operand, Result, VarOperand, VerifyError


@DIALECT.op
class AssertOp(Op):
    """`assert!(cond, "message")`: when `cond` is false, report the message with the source file and line
    (CUDA's `__assertfail`) and stop the kernel; the launch then fails with CUDA_ERROR_ASSERT.

    The message is non-empty and has no NUL characters (Rust's default message is `assertion failed: <cond>`).
    Lowers to upstream `cf.assert`, then a call of `__assertfail(message, file, line, function, 1)`. A failed
    assertion leaves the CUDA context unusable, as a trap does.
    """

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
    launch fails (an unspecified launch failure) and the context is unusable afterwards.

    Lowers to `llvm.intr.trap`; the launch fails with CUDA_ERROR_LAUNCH_FAILED or
    CUDA_ERROR_ILLEGAL_INSTRUCTION.
    """

    mnemonic = "trap"


_I32, _I64, _F64 = Is("i32"), Is("i64"), Is("f64")


@DIALECT.op
class PrintfOp(Op):
    """`gpu_printf!`: CUDA's `vprintf` of a C format and its arguments, promoted as C varargs (i32, i64,
    f64). The result is vprintf's: the number of arguments on success, negative on an internal error (never
    a character count: the host formats the buffer later).

    The arguments come in three groups, one per type (IRDL types a variadic group as one type), and
    `order` says which group each argument, in format order, is taken from next: `i` i32, `l` i64,
    `d` f64 (`"idi"`: ints32[0], floats[0], ints32[1]).

    Widening the arguments is the frontend's job: vprintf reads every integer argument as at least 4 bytes and
    every float as a double, so an i8 passed as one byte would be misread. Lowers to a call of
    `vprintf(format, argument buffer)`, its result kept (upstream `gpu.printf` is still accepted in MLIR input
    but drops it).
    """

    mnemonic = "printf"
    ints32 = VarOperand(_I32, "the i32 arguments, in order")
    ints64 = VarOperand(_I64, "the i64 arguments, in order")
    floats = VarOperand(_F64, "the f64 arguments, in order")
    format = Attr(STRING_ATTR, "the C format string")
    order = Attr(STRING_ATTR, "per argument, the group it comes from: i, l or d")
    result = Result(_I32)

    def verify_(self) -> None:
        # The format becomes a C string: an embedded NUL would cut it short.
        if "\0" in self.format:
            raise VerifyError("a printf format cannot contain a NUL character")
        counts = (self.order.count("i"), self.order.count("l"), self.order.count("d"))
        if counts != (len(self.ints32), len(self.ints64), len(self.floats)) or len(self.order) != sum(counts):
            raise VerifyError(f"order \"{self.order}\" does not match {len(self.ints32)} i32, "
                              f"{len(self.ints64)} i64 and {len(self.floats)} f64 arguments")

    def arguments(self) -> list:
        """The arguments in format order."""
        groups = {"i": iter(self.ints32), "l": iter(self.ints64), "d": iter(self.floats)}
        return [next(groups[kind]) for kind in self.order]
