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

A mask `x & y` also drops one conjunct in the steps where that conjunct alone is all-true: causal attention's
blocks on the diagonal lie inside the sequence, so there the select applies only `x` (the causal compare), and a
partial last block below the diagonal only `y`. The branches are tried in order:

```
scf.if all { a } else { scf.if y_all { select(x, a, b) } else { scf.if x_all { select(y, a, b) }
                                                                 else { select(x & y, a, b) } } }
```

Measured in the sm_90a causal attention kernel (D = 64, BN = 64): a masked step's mask went from 64 selects and
49 compares per thread to half of each.

Only selects inside a loop take the rule, and only where `a` is already in the select's layout (neither branch
moves data): a loop is where a mask's truth changes from step to step and holds in most of them; outside one, a
block evaluates its mask once.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.ir.rules import is_op
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.elementwise import elementwise_layout, lower_elementwise
from oxide.passes.conversion.tile_to_simt.layouts import Layout, TileValue
from oxide.passes.conversion.tile_to_simt.mask_bounds import Condition, MaskBounds, emit
from oxide.passes.conversion.tile_to_simt.remap import convert_layout
from oxide.passes.conversion.tile_to_simt.rematerialise import rebuilt
from oxide.passes.conversion.tile_to_simt.rules import lowering


@lowering(arith.SelectOp)
def lower_select(ctx: TileLowering, op: ir.Operation) -> Any:
    """A select, its mask (or one conjunct of it) skipped in the steps where it is all-true (module docstring)."""
    mask = op.operands[0]
    if ctx.loop_depth == 0 or not isinstance(mask.type, ir.RankedTensorType):
        return lower_elementwise(ctx, op)
    operands = [ctx.lowered(v) for v in op.operands]
    layout = elementwise_layout(ctx, op, operands)
    kept = operands[1]
    if not isinstance(kept, TileValue) or not (kept.is_splat or kept.layout == layout):
        return lower_elementwise(ctx, op)
    cases = _cases(MaskBounds(ctx), mask)
    if not cases:
        return lower_elementwise(ctx, op)
    values = [kept.values[0]] * layout.per_thread if kept.is_splat else list(kept.values)
    if cases[0] == (True, None):
        return TileValue(layout, values, splat=kept.is_splat)
    return TileValue(layout, _branches(ctx, op, layout, values, cases))


Case = tuple[Condition, ir.Value | None]


def _cases(bounds: MaskBounds, mask: ir.Value) -> list[Case]:
    """(condition, the mask still to apply: None for none) in the order tried, those with a condition: the whole
    mask all-true, then for a mask `x & y` each conjunct all-true (the other one applied)."""
    cases: list[Case] = [(bounds.always(mask, True), None)]
    op = None if isinstance(mask, ir.BlockArgument) else mask.owner.operation
    if op is not None and is_op(op, arith.AndIOp):
        x, y = op.operands
        cases += [(bounds.always(y, True), x), (bounds.always(x, True), y)]
    return [case for case in cases if case[0] is not False]


def _branches(ctx: TileLowering, op: ir.Operation, layout: Layout, kept: list[ir.Value],
              cases: list[Case]) -> list[ir.Value]:
    """The select's values: the first case whose condition holds (a condition known true ends the chain), else
    the select with its whole mask."""
    def applying(applied: ir.Value | None) -> list[ir.Value]:
        """The values with `applied` as the mask (None: no mask), emitted at the current insertion point."""
        return kept if applied is None else list(_masked(ctx, op, layout, applied).values)

    if not cases:
        return applying(op.operands[0])
    (condition, applied), rest = cases[0], cases[1:]
    if condition is True:
        return applying(applied)
    branch = scf.IfOp(emit(ctx, condition), [v.type for v in kept], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.YieldOp(applying(applied))
    with ir.InsertionPoint(branch.else_block):
        scf.YieldOp(_branches(ctx, op, layout, kept, rest))
    return list(branch.results)


def _masked(ctx: TileLowering, op: ir.Operation, layout: Layout, applied: ir.Value) -> TileValue:
    """The select with `applied` (its mask or a conjunct of it) as the mask, rebuilt here in `layout` where its
    chain allows (its lowering before the branch then has no use left and is dropped)."""
    mask = op.operands[0]
    outside = ctx.lowered(mask)
    here = rebuilt(ctx, applied, layout)
    ctx.bind(mask, here if here is not None else ctx.lowered(applied))
    try:
        result = lower_elementwise(ctx, op)
    finally:
        ctx.bind(mask, outside)
    return result if result.layout == layout else convert_layout(ctx, result, layout)
