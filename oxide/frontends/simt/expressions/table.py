"""The one dispatch table of the SIMT emitter: AST expression class -> the function that emits it.

Each expression module registers its handlers with `@emits(ast.Binary)` on the function itself;
FunctionEmitter.expr looks the class up here. A class registered twice is a programming error, refused at
import time, so which handler runs never depends on the order modules are imported in.
"""

from __future__ import annotations

from typing import Callable, TYPE_CHECKING

from oxide.frontends.syntax import ast
from oxide.ir.registry import Registry

if TYPE_CHECKING:
    from oxide.frontends.simt import types as T
    from oxide.frontends.simt.emit import FunctionEmitter
    from oxide.frontends.simt.values import Val

Handler = Callable[["FunctionEmitter", ast.Expr, "T.Ty | None"], "Val"]

EMITTERS: Registry[type, Handler] = Registry("expression emitter for", lambda cls: cls.__name__)


def emits(*classes: type) -> Callable[[Handler], Handler]:
    """Register the decorated function as the emitter of expressions of these AST classes."""
    return EMITTERS.register(*classes)
