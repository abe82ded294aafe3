"""Tile debugging: `cuda_tile_print!("fmt {}", args..)` as `tile.print`, one formatted line per tile block.

The frontend translates the Rust format string to a C printf format (oxide.dialects.simt.printf) and widens
the arguments as C varargs (i32, i64, f64); the op keeps them in three typed groups with `order`, as
`simt.printf` does, so that the lowering is one `simt.printf` executed by the block's first thread.
"""

from __future__ import annotations

from oxide.dialects.simt.debug import print_arguments, verify_print_operands
from oxide.dialects.tile.dialect import DIALECT
from oxide.ir.constraints import STRING_ATTR, Is
from oxide.ir.declare import Attr, Op, VarOperand

_I32, _I64, _F64 = Is("i32"), Is("i64"), Is("f64")


@DIALECT.op
class PrintOp(Op):
    """`cuda_tile_print!`: print a C format with scalar arguments once per tile block (the block's thread 0
    calls CUDA's `vprintf`; the emulator prints the same text). Arguments come in three groups by type;
    `order` says which group each argument, in format order, is taken from next (`i` i32, `l` i64, `d` f64)."""

    mnemonic = "print"
    ints32 = VarOperand(_I32, "the i32 arguments, in order")
    ints64 = VarOperand(_I64, "the i64 arguments, in order")
    floats = VarOperand(_F64, "the f64 arguments, in order")
    format = Attr(STRING_ATTR, "the C format string")
    order = Attr(STRING_ATTR, "per argument, the group it comes from: i, l or d")

    def verify_(self) -> None:
        verify_print_operands(self, "print")

    def arguments(self) -> list:
        """The arguments in format order."""
        return print_arguments(self)
