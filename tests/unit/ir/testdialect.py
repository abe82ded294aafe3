"""A dialect declared only for tests: variadic and optional groups, type variables, attributes."""

from oxide.ir import (
    ANY_FLOAT, INDEX, INTEGER_ATTR, STRING_ATTR, AnyType, Attr, BaseOf, Dialect, Is, Op, Operand, OptOperand, Param,
    Parametric, Result, TypeDef, TypeVar, VarOperand, VarResult, VerifyError,
)

DIALECT = Dialect("oxtest", "A dialect for oxide's own unit tests.")


@DIALECT.type
class BoxType(TypeDef):
    """A box of one element type."""

    mnemonic = "box"
    elem = Param(AnyType())


_T = TypeVar("T")


@DIALECT.op
class UnboxOp(Op):
    """Take the element out of a box; the result type is inferred from the box."""

    mnemonic = "unbox"
    box = Operand(Parametric(BoxType, _T))
    result = Result(_T)


@DIALECT.op
class SegmentsOp(Op):
    """Two variadic groups and an optional one around a single operand: needs operandSegmentSizes."""

    mnemonic = "segments"
    head = VarOperand(Is("i32"))
    middle = Operand(INDEX)
    tail = VarOperand(ANY_FLOAT)
    maybe = OptOperand(Is("i1"))


@DIALECT.op
class OneVariadicOp(Op):
    """One variadic group after a single operand: no segment attribute needed."""

    mnemonic = "one_variadic"
    first = Operand(INDEX)
    rest = VarOperand(INDEX)
    label = Attr(STRING_ATTR)
    results_ = VarResult(INDEX)


@DIALECT.op
class EvenOp(Op):
    """Carries an integer that must be even (a Python verifier)."""

    mnemonic = "even"
    value = Attr(INTEGER_ATTR)
    result = Result(BaseOf(BoxType))

    def verify_(self) -> None:
        if self.value % 2:
            raise VerifyError(f"value must be even, got {self.value}")
