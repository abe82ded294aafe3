"""oxide.ir: declare dialects, types, attributes and ops in Python on top of upstream mlir.ir.

Declarations generate IRDL (loaded into every context by oxide.dialects.context), typed OpViews and builders;
MLIR's diagnostics become oxide's (oxide.diagnostics); compat probes the installed bindings once.

Nothing loads eagerly: importing oxide.ir costs nothing on a machine without the MLIR wheels (a GPU server
running cached builds); each name is imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

_CONSTRAINTS = ("ANY_FLOAT", "ANY_INTEGER", "I1", "INDEX", "INTEGER_ATTR", "SCALAR", "STRING_ATTR", "AnyOf", "AnyType",
                "BaseOf", "Constraint", "Is", "Parametric", "TypeVar", "one_of")
_DECLARE = ("DIALECTS", "Attr", "AttrDef", "DeclarationError", "Dialect", "Op", "Operand", "OptOperand", "Param",
            "Result", "TypeDef", "VarOperand", "VarResult", "VerifyError")
_HOME = {**{name: "oxide.ir.constraints" for name in _CONSTRAINTS}, **{name: "oxide.ir.declare" for name in _DECLARE}}

__all__ = [*_CONSTRAINTS, *_DECLARE]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'oxide.ir' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
