"""The one dispatch table of the SIMT emitter: AST expression class -> the function that emits it.

Each expression module registers its handlers with `@emits(ast.Binary)` on the function itself;
FunctionEmitter.expr looks the class up here. A class registered twice is a programming error, refused at
import time, so which handler runs never depends on the order modules are imported in.
"""

from __future__ import annotations

from typing import Callable, TYPE_CHECKING

from oxide.frontends.syntax import ast

if TYPE_CHECKING:
    from oxide.frontends.simt import types as T
    from oxide.frontends.simt.emit import FunctionEmitter
    from oxide.frontends.simt.values import Val

Handler = Callable[["FunctionEmitter", ast.Expr, "T.Ty | None"], "Val"]

EMITTERS: dict[type, Handler] = {}


def emits(*classes: type) -> Callable[[Handler], Handler]:
    """Register the decorated function as the emitter of expressions of these AST classes."""

    def register(handler: Handler) -> Handler:
        for cls in classes:
            if cls in EMITTERS:
                raise ValueError(f"{cls.__name__} expressions already have an emitter: "
                                 f"{EMITTERS[cls].__module__}.{EMITTERS[cls].__name__}")
            EMITTERS[cls] = handler
        return handler

    return register
