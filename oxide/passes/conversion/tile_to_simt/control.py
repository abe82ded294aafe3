"""Structured control flow with tiles: scf.for / scf.if / scf.while re-created with every tile operand,
result and block argument expanded to the scalars this thread holds, and the kernel's gpu.return.

A loop-carried tile takes the layout of what the loop body yields (so an mma accumulator stays in its mma
layout across the K loop): the body is emitted with the initial value's layout, and emitted again with
the yielded layout when they differ (scf.while likewise for both of its regions). scf.if results take the
then-branch's layouts. A branch or body whose yield is in another layout converts before yielding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mlir import ir
from mlir.dialects import builtin, gpu, scf

from oxide.dialects import tile as T
from oxide.ir.rules import LoweringError, is_op
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.driver import emit_block
from oxide.passes.conversion.tile_to_simt.layouts import Layout, TileValue
from oxide.passes.conversion.tile_to_simt.loop_carry import LoopCarry
from oxide.passes.conversion.tile_to_simt.remap import convert_layout
from oxide.passes.conversion.tile_to_simt.rules import lowering
from oxide.passes.conversion.tile_to_simt.mma import mma_result_layout
from oxide.passes.conversion.tile_to_simt.mma_pipeline import lower_pipelined_loop

# The op standing for a loop's initial values until their layouts settle.
_STAND_IN = builtin.UnrealizedConversionCastOp.OPERATION_NAME
# How many times a loop body is emitted while its carried tiles' layouts settle.
MAX_LAYOUT_ROUNDS = 3


@dataclass
class YieldFrame:
    """The layouts a region's terminator must yield its tiles in (None for scalars), and what it had."""

    targets: list[Layout | None]
    observed: list[Layout | None] = field(default_factory=list)
    # Values the lowering carries beside the loop's own (loop_carry.py), yielded after them.
    carry: LoopCarry | None = None


def _layout_of(value: Any) -> Layout | None:
    return value.layout if isinstance(value, TileValue) else None


def _types(value: Any, layout: Layout | None) -> list[ir.Type]:
    if layout is None:
        if not isinstance(value, ir.Value):
            raise LoweringError(_NOT_CARRIED)
        return [value.type]
    return [value.values[0].type] * layout.per_thread


_NOT_CARRIED = "only tiles and scalars can flow through scf regions (not views or partitions)"


def _flatten(ctx: TileLowering, values: Sequence[Any], layouts: Sequence[Layout | None]) -> list[ir.Value]:
    flat: list[ir.Value] = []
    for value, layout in zip(values, layouts):
        if layout is None and not isinstance(value, ir.Value):
            raise LoweringError(_NOT_CARRIED)
        flat.extend(convert_layout(ctx, value, layout).values if layout is not None else [value])
    return flat


def _regroup(flat: Sequence[ir.Value], layouts: Sequence[Layout | None]) -> list[Any]:
    grouped: list[Any] = []
    position = 0
    for layout in layouts:
        if layout is None:
            grouped.append(flat[position])
            position += 1
        else:
            grouped.append(TileValue(layout, list(flat[position:position + layout.per_thread])))
            position += layout.per_thread
    return grouped


def _emit_region(ctx: TileLowering, old: ir.Block, new: ir.Block, args: list[Any], frame: YieldFrame) -> YieldFrame:
    for old_arg, value in zip(old.arguments, args):
        ctx.bind(old_arg, value)
    ctx.yields.append(frame)
    try:
        with ir.InsertionPoint(new):
            emit_block(ctx, old)
    finally:
        ctx.yields.pop()
    return frame


def _settled(targets: list[Layout | None], observed: list[Layout | None]) -> list[Layout | None] | None:
    """The new targets when a yield came in other layouts than the targets (None when they agree)."""
    changed = [o if t is not None and o is not None and o != t else t for t, o in zip(targets, observed)]
    return None if changed == targets else changed


@lowering(scf.YieldOp, scf.ConditionOp)
def lower_yield(ctx: TileLowering, op: ir.Operation) -> None:
    """Yield the lowered values, tiles converted to the enclosing op's layouts."""
    frame: YieldFrame = ctx.yields[-1]
    operands = list(op.operands)
    condition = ctx.scalar(operands.pop(0)) if is_op(op, scf.ConditionOp) else None
    values = [ctx.lowered(v) for v in operands]
    frame.observed = [v.layout if isinstance(v, TileValue) and not v.is_splat else None for v in values]
    flat = _flatten(ctx, values, frame.targets) + (frame.carry.yielded if frame.carry else [])
    if condition is not None:
        scf.ConditionOp(condition, flat)
    else:
        scf.YieldOp(flat)


@lowering(scf.ForOp)
def lower_for(ctx: TileLowering, op: ir.Operation) -> list[Any] | Any:
    """A counted loop; carried tiles settle on the layout the body yields. A GEMM K loop on the mma.sync chips is
    the cp.async pipeline instead (mma_pipeline.py); one on sm_90a never gets here (gemm_kernel.py emits it)."""
    if ctx.pipeline is not None and ctx.pipeline[0].loop == op:
        return lower_pipelined_loop(ctx, *ctx.pipeline)
    lower, upper, step = (ctx.scalar(v) for v in list(op.operands)[:3])
    inits = [ctx.lowered(v) for v in list(op.operands)[3:]]
    old_body = op.regions[0].blocks[0]
    layouts = _first_guess(ctx, old_body, [_layout_of(v) for v in inits])
    carry = ctx.loop_carry if ctx.loop_carry is not None and ctx.loop_carry.loop == op else None
    extra = carry.types if carry else []
    for round_ in range(MAX_LAYOUT_ROUNDS):
        before = ctx.scratch_state()
        types = [t for v, layout in zip(inits, layouts) for t in _types(v, layout)] + extra
        # Stand-ins for the initial values: the real ones are converted once the layouts are settled.
        stand_ins = ir.Operation.create(_STAND_IN, results=types) if types else None
        loop = scf.ForOp(lower, upper, step, list(stand_ins.results) if stand_ins else [])
        inner = list(loop.inner_iter_args)
        if carry:
            carry.inner = inner[len(inner) - len(extra):]
        ctx.loop_depth += 1
        try:
            frame = _emit_region(ctx, old_body, loop.body, [loop.induction_variable, *_regroup(inner, layouts)],
                                 YieldFrame(list(layouts), carry=carry))
        finally:
            ctx.loop_depth -= 1
        better = _settled(layouts, frame.observed)
        if better is None or round_ == MAX_LAYOUT_ROUNDS - 1:
            break
        layouts = better
        _discard(ctx, loop, stand_ins, before)
    return _finish(ctx, loop, stand_ins, inits, layouts, layouts, carry)


def _first_guess(ctx: TileLowering, body: ir.Block, layouts: list[Layout | None]) -> list[Layout | None]:
    """The carried tiles' layouts for a loop's first round: a tile the body yields straight from an mma.sync
    product takes that product's layout, which the body yields whatever it carries. Starting from the initial
    values' layouts instead, the first round converts the tile into that layout and back through shared memory
    and is thrown away (a third of an sm_90a GEMM sibling's tile lowering)."""
    terminator = list(body.operations)[-1]
    guessed = list(layouts)
    for i, value in enumerate(list(terminator.operands)[:len(layouts)]):
        owner = value.owner  # an op (or its view), or the block of a block argument
        if layouts[i] is not None and not isinstance(owner, ir.Block) and is_op(owner, T.MmaOp):
            guessed[i] = mma_result_layout(ctx, owner.operation.opview) or layouts[i]
    return guessed


@lowering(scf.IfOp)
def lower_if(ctx: TileLowering, op: ir.Operation) -> list[Any] | Any:
    """A branch on a (block-uniform) scalar; tile results in the then-branch's layouts."""
    cond = ctx.scalar(op.operands[0])
    results = list(op.results)
    has_else = len(op.regions[1].blocks) > 0
    layouts: list[Layout | None] = [ctx.default_layout(list(r.type.shape)) if isinstance(r.type, ir.RankedTensorType)
                                    else None for r in results]
    for round_ in range(2):
        before = ctx.scratch_state()
        types = [t for r, layout in zip(results, layouts)
                 for t in ([r.type.element_type] * layout.per_thread if layout is not None else [r.type])]
        branch = scf.IfOp(cond, types, has_else=has_else)
        then = _emit_region(ctx, op.regions[0].blocks[0], branch.then_block, [], YieldFrame(list(layouts)))
        better = _settled(layouts, then.observed)
        if better is None or round_ == 1:
            break
        layouts = better
        branch.operation.erase()
        ctx.restore_scratch(before)
    if has_else:
        _emit_region(ctx, op.regions[1].blocks[0], branch.else_block, [], YieldFrame(list(layouts)))
    grouped = _regroup(list(branch.results), layouts)
    return grouped if len(grouped) != 1 else grouped[0]


@lowering(scf.WhileOp)
def lower_while(ctx: TileLowering, op: ir.Operation) -> list[Any] | Any:
    """A while loop; its tiles settle, as scf.for's, on the layouts its regions yield (the `before` region's
    arguments start in the initial values' layouts, the `after` region's in the default layout)."""
    inits = [ctx.lowered(v) for v in op.operands]
    before_old, after_old = op.regions[0].blocks[0], op.regions[1].blocks[0]

    def types_of(args: Sequence[ir.Value], layouts: list[Layout | None]) -> list[ir.Type]:
        if any(str(a.type).startswith("!tile.") for a in args):
            raise LoweringError(_NOT_CARRIED)
        return [t for a, layout in zip(args, layouts)
                for t in ([a.type.element_type] * layout.per_thread if layout is not None else [a.type])]

    before_layouts = [_layout_of(v) for v in inits]
    after_layouts: list[Layout | None] = [ctx.default_layout(list(a.type.shape))
                                          if isinstance(a.type, ir.RankedTensorType) else None
                                          for a in after_old.arguments]
    for round_ in range(MAX_LAYOUT_ROUNDS):
        state = ctx.scratch_state()
        init_types = types_of(before_old.arguments, before_layouts)
        stand_ins = ir.Operation.create(_STAND_IN, results=init_types) if init_types else None
        loop = scf.WhileOp(types_of(after_old.arguments, after_layouts), list(stand_ins.results) if stand_ins else [])
        before = loop.before.blocks.append(*init_types)
        after = loop.after.blocks.append(*types_of(after_old.arguments, after_layouts))
        ctx.loop_depth += 1
        try:
            condition = _emit_region(ctx, before_old, before, _regroup(list(before.arguments), before_layouts),
                                     YieldFrame(list(after_layouts)))
            body = _emit_region(ctx, after_old, after, _regroup(list(after.arguments), after_layouts),
                                YieldFrame(list(before_layouts)))
        finally:
            ctx.loop_depth -= 1
        better_after = _settled(after_layouts, condition.observed)
        better_before = _settled(before_layouts, body.observed)
        if (better_after is None and better_before is None) or round_ == MAX_LAYOUT_ROUNDS - 1:
            break
        # One side at a time: the body's yields follow the `after` arguments' guessed layouts, so settle
        # those first (from what the condition forwards), then the loop-carried `before` layouts.
        if better_after is not None:
            after_layouts = better_after
        else:
            before_layouts = better_before
        _discard(ctx, loop, stand_ins, state)
    return _finish(ctx, loop, stand_ins, inits, before_layouts, after_layouts)


def _discard(ctx: TileLowering, loop: Any, stand_ins: Any, state: Any) -> None:
    """Drop a loop lowered with layouts that did not settle, and the scratch it used, for another round."""
    loop.operation.erase()
    if stand_ins is not None:
        stand_ins.erase()
    ctx.restore_scratch(state)


def _finish(ctx: TileLowering, loop: Any, stand_ins: Any, inits: list[Any], init_layouts: list[Layout | None],
            result_layouts: list[Layout | None], carry: LoopCarry | None = None) -> list[Any] | Any:
    """The settled loop: its initial values converted to their layouts in place of the stand-ins, and its
    results regrouped into tiles (then given, with the extra carried values' results, to `carry.close`)."""
    if stand_ins is not None:
        with ir.InsertionPoint(loop.operation):
            real = _flatten(ctx, inits, init_layouts)
            if carry:
                real = carry.enter(real, init_layouts)
        for placeholder, value in zip(stand_ins.results, real):
            placeholder.replace_all_uses_with(value)
        stand_ins.erase()
    results = list(loop.results)
    own = len(results) - len(carry.types) if carry else len(results)
    grouped = _regroup(results[:own], result_layouts)
    if carry:
        grouped = carry.close(grouped, results[own:])
    return grouped if len(grouped) != 1 else grouped[0]


@lowering(gpu.ReturnOp)
def lower_return(ctx: TileLowering, op: ir.Operation) -> None:
    """The kernel's end."""
    gpu.ReturnOp([])
