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
        verify_print_operands(self, "printf")

    def arguments(self) -> list:
        """The arguments in format order."""
        return print_arguments(self)


def verify_print_operands(op: Op, what: str) -> None:
    """The checks a printf-like op (format, order, ints32, ints64, floats) shares: the format becomes a C
    string, so an embedded NUL would cut it short; `order` names each argument's group."""
    if "\0" in op.format:
        raise VerifyError(f"a {what} format cannot contain a NUL character")
    counts = (op.order.count("i"), op.order.count("l"), op.order.count("d"))
    if counts != (len(op.ints32), len(op.ints64), len(op.floats)) or len(op.order) != sum(counts):
        raise VerifyError(f"order \"{op.order}\" does not match {len(op.ints32)} i32, "
                          f"{len(op.ints64)} i64 and {len(op.floats)} f64 arguments")


def print_arguments(op: Op) -> list:
    """A printf-like op's arguments in format order."""
    groups = {"i": iter(op.ints32), "l": iter(op.ints64), "d": iter(op.floats)}
    return [next(groups[kind]) for kind in op.order]
