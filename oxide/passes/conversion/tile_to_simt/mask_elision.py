"""Mask elision: a `select(mask, a, b)` on tiles in a loop skips its mask in the steps where the mask is all-true
(flash attention's key blocks before the diagonal and inside the sequence: docs/tile-attention.md, "Steps
without a mask").

A step of flash attention masks its scores with `select(mask, s, -inf)`, the mask an index chain of the step's
key offset (keys inside the sequence; causal: not after the query row). Per score that is two compares, an and
and a select, although only the key blocks that cross the diagonal or the sequence's end have a false element.
mask_bounds.py turns the mask's chain into a condition on block-uniform scalars (the loop counter, the block ids,
the sequence length) under which every element is true; here the select becomes

```
scf.if cond { a } else { select(mask, a, b) }
```

with the mask rebuilt in the select's layout inside the else branch (rematerialise.py), so a step that skips the
mask skips computing it too: the code duplicated is the select alone. The condition is the same for every thread
of the block, so the branch does not diverge; it costs a few scalar compares per step. A condition known at
compile time needs no branch (true: `a`; unproven: the select as it was).

Only selects inside a loop take the rule, and only where `a` is already in the select's layout (neither branch
moves data): a loop is where a mask's truth changes from step to step and holds in most of them; outside one, a
block evaluates its mask once.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.elementwise import elementwise_layout, lower_elementwise
from oxide.passes.conversion.tile_to_simt.layouts import Layout, TileValue
from oxide.passes.conversion.tile_to_simt.mask_bounds import MaskBounds, emit
from oxide.passes.conversion.tile_to_simt.rematerialise import rebuilt
from oxide.passes.conversion.tile_to_simt.remap import convert_layout
from oxide.passes.conversion.tile_to_simt.rules import lowering


@lowering(arith.SelectOp)
def lower_select(ctx: TileLowering, op: ir.Operation) -> Any:
    """A select, its mask skipped in the steps where it is all-true (module docstring)."""
    mask = op.operands[0]
    if ctx.loop_depth == 0 or not isinstance(mask.type, ir.RankedTensorType):
        return lower_elementwise(ctx, op)
    operands = [ctx.lowered(v) for v in op.operands]
    layout = elementwise_layout(ctx, op, operands)
    kept = operands[1]
    if not isinstance(kept, TileValue) or not (kept.is_splat or kept.layout == layout):
        return lower_elementwise(ctx, op)
    condition = MaskBounds(ctx).always(mask, True)
    if condition is False:
        return lower_elementwise(ctx, op)
    values = [kept.values[0]] * layout.per_thread if kept.is_splat else list(kept.values)
    if condition is True:
        return TileValue(layout, values, splat=kept.is_splat)
    branch = scf.IfOp(emit(ctx, condition), [v.type for v in values], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.YieldOp(values)
    with ir.InsertionPoint(branch.else_block):
        scf.YieldOp(list(_masked(ctx, op, layout).values))
    return TileValue(layout, list(branch.results))


def _masked(ctx: TileLowering, op: ir.Operation, layout: Layout) -> TileValue:
    """The select with its mask, the mask rebuilt here in `layout` where its chain allows (its lowering before the
    branch then has no use left and is dropped)."""
    mask = op.operands[0]
    outside = ctx.lowered(mask)
    here = rebuilt(ctx, mask, layout)
    if here is not None:
        ctx.bind(mask, here)
    try:
        result = lower_elementwise(ctx, op)
    finally:
        ctx.bind(mask, outside)
    return result if result.layout == layout else convert_layout(ctx, result, layout)
