"""The emulator's rule registries: one function per op name, which writes the Python that executes the op --
on lane vectors in a SIMT kernel (`rule`, RULES), on whole tiles in a tile kernel (`tile_rule`, TILE_RULES).
An op with no rule is a located error (program.py), never skipped."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oxide.backend.emulator.emitter import KernelEmitter

Rule = Callable[["KernelEmitter", Any], None]
RULES: dict[str, Rule] = {}
TILE_RULES: dict[str, Rule] = {}


def _registrar(table: dict[str, Rule], names: tuple[str, ...]) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        for name in names:
            if name in table:
                raise ValueError(f"{name} has two emulator rules")
            table[name] = fn
        return fn

    return register


def rule(*names: str) -> Callable[[Rule], Rule]:
    """Decorator: register the function as the SIMT emulator rule of each op name."""
    return _registrar(RULES, names)


def tile_rule(*names: str) -> Callable[[Rule], Rule]:
    """Decorator: register the function as the tile-kernel emulator rule of each op name."""
    return _registrar(TILE_RULES, names)
