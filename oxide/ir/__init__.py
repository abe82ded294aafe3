"""oxide.ir: declare dialects, types, attributes and ops in Python on top of upstream mlir.ir.

Declarations generate IRDL (loaded into every context from make_context), typed OpViews and builders;
diagnostics carry source locations; compat probes the installed bindings once.
"""

from oxide.ir.constraints import (
    ANY_FLOAT, ANY_INTEGER, I1, INDEX, INTEGER_ATTR, SCALAR, STRING_ATTR, AnyOf, AnyType, BaseOf, Constraint, Is,
    Parametric, TypeVar, one_of,
)
from oxide.ir.context import make_context
from oxide.ir.declare import (
    DIALECTS, Attr, AttrDef, DeclarationError, Dialect, Op, Operand, OptOperand, Param, Result, TypeDef, VarOperand,
    VarResult, VerifyError,
)
from oxide.ir.diagnostics import Diagnostic, OxideError, SourceLoc

__all__ = [
    "ANY_FLOAT", "ANY_INTEGER", "I1", "INDEX", "INTEGER_ATTR", "SCALAR", "STRING_ATTR", "AnyOf", "AnyType", "BaseOf",
    "Constraint", "Is", "Parametric", "TypeVar", "one_of", "make_context", "DIALECTS", "Attr", "AttrDef",
    "DeclarationError", "Dialect", "Op", "Operand", "OptOperand", "Param", "Result", "TypeDef", "VarOperand",
    "VarResult", "VerifyError", "Diagnostic", "OxideError", "SourceLoc",
]
