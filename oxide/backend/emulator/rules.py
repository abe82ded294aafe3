"""The emulator's rule registry: one function per op name, which writes the Python that executes the op on
lane vectors. An op with no rule is a located error (program.py), never skipped."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oxide.backend.emulator.emitter import KernelEmitter

Rule = Callable[["KernelEmitter", Any], None]
RULES: dict[str, Rule] = {}


def rule(*names: str) -> Callable[[Rule], Rule]:
    """Decorator: register the function as the emulator rule of each op name."""

    def register(fn: Rule) -> Rule:
        for name in names:
            if name in RULES:
                raise ValueError(f"{name} has two emulator rules")
            RULES[name] = fn
        return fn

    return register
