"""simt constant memory: the address of a module-level `__constant__` variable (cuda-oxide's
`#[constant] static X: ConstantMemory<T>`), which the host writes before a launch and every thread reads.

The variable itself is an upstream `llvm.mlir.global` in address space 4 of the gpu.module, externally
visible and not `constant` to LLVM (so no load of it is folded to its placeholder zero initializer: the host
changes it). `simt.constant_addr` names it by symbol and yields a pointer to its first element.
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import STRING_ATTR, AnyType, Parametric
from oxide.ir.declare import Attr, Op, Result, VerifyError, python_value


@DIALECT.op
class ConstantAddrOp(Op):
    """`X.get()`'s address: a pointer into constant memory (address space 4) at the global `symbol`."""

    mnemonic = "constant_addr"
    symbol = Attr(STRING_ATTR, "the llvm.mlir.global in address space 4")
    result = Result(Parametric(PtrType, AnyType(), AnyType()))

    def verify_(self) -> None:
        if python_value(PtrType.parameters_of(self.result.type)[1]) != 4:
            raise VerifyError("a constant-memory variable is in address space 4")
