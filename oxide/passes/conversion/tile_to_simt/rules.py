"""The tile -> simt rule registry: one function per source op, registered with `@lowering(OpClass or name)`.

A rule is `rule(ctx: TileLowering, op) -> results`, called with the insertion point where the lowered code
goes and the op's location active. It reads its operands through `ctx.tile(v)` (a TileValue), `ctx.scalar(v)`
(an ir.Value) or `ctx.lowered(v)` (views and partitions), and returns the lowered results: one entry per
result of the op (a TileValue, an ir.Value or a view/partition), a single entry for a one-result op, or None
for an op without results. Ops with regions (scf) get the op itself and emit their regions through
`driver.emit_block(ctx, block)`. An op with no rule is a located error, never skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Rule = Callable[[Any, Any], Any]
TILE_RULES: dict[str, Rule] = {}


def lowering(*ops: Any) -> Callable[[Rule], Rule]:
    """Decorator: register `rule` as the lowering of each op (a declared op class or an op name)."""

    def register(rule: Rule) -> Rule:
        for op in ops:
            name = op if isinstance(op, str) else op.OPERATION_NAME
            if name in TILE_RULES:
                raise ValueError(f"{name} has two tile lowering rules")
            TILE_RULES[name] = rule
        return rule

    return register
