"""Elementwise ops: upstream arith/math ops on tiles become the same op on each element this thread holds;
on scalars they are re-created as they are. Splat `arith.constant dense<c>` tiles are one scalar constant.

All tile operands are brought to one layout first: the first operand that is not a splat decides (results
follow their operands, so a chain of elementwise ops never moves data).
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.ir.rules import LoweringError
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.driver import attributes_of, clone_scalar_op
from oxide.passes.conversion.tile_to_simt.fp8 import is_fp8, lower_conversion
from oxide.passes.conversion.tile_to_simt.attention_pattern import WGMMA_KIND
from oxide.passes.conversion.tile_to_simt.layouts import Layout, TileValue
from oxide.passes.conversion.tile_to_simt.rematerialise import ELEMENTWISE_OPS, rebuildable, rematerialised
from oxide.passes.conversion.tile_to_simt.remap import convert_layout
from oxide.passes.conversion.tile_to_simt.scalar_ops import scalar_op
from oxide.passes.conversion.tile_to_simt.rules import lowering


@lowering(arith.ConstantOp)
def lower_constant(ctx: TileLowering, op: ir.Operation) -> Any:
    """A splat tile constant is its scalar; scalar constants stay."""
    result_type = op.results[0].type
    if not isinstance(result_type, ir.RankedTensorType):
        return clone_scalar_op(ctx, op)
    dense = ir.DenseElementsAttr(op.attributes["value"])
    if not dense.is_splat:
        raise LoweringError("only splat tile constants (`dense<c>`) are supported; build other tiles with iota, "
                            "arithmetic and select")
    elem = result_type.element_type
    scalar = arith.constant(elem, dense.get_splat_value())
    return ctx.splat(scalar, ctx.default_layout(list(result_type.shape)))


# A select on tiles has its own rule, which may skip its mask (mask_elision.py) and otherwise comes here.
@lowering(*(cls for cls in ELEMENTWISE_OPS if cls is not arith.SelectOp))
def lower_elementwise(ctx: TileLowering, op: ir.Operation) -> Any:
    """The op on each element (tiles), or the op itself (scalars); conversions from and to fp8 by fp8.py."""
    if isinstance(op.opview, (arith.ExtFOp, arith.TruncFOp)) and (is_fp8(op.operands[0].type)
                                                                    or is_fp8(op.results[0].type)):
        return lower_conversion(ctx, op, ctx.lowered(op.operands[0]))
    if not any(isinstance(v.type, ir.RankedTensorType) for v in [*op.operands, *op.results]):
        return clone_scalar_op(ctx, op)
    if len(op.regions):
        raise LoweringError(f"'{op.name}' on tiles has no lowering (it has regions)")
    operands = [ctx.lowered(v) for v in op.operands]
    layout = elementwise_layout(ctx, op, operands)
    aligned = [_aligned(ctx, old, t, layout) for old, t in zip(op.operands, operands)]
    result_types = [r.type.element_type for r in op.results]
    attributes = attributes_of(op)
    columns: list[list[ir.Value]] = [[] for _ in result_types]
    # A splat in, a splat out: one scalar op instead of one per element.
    splat = all(isinstance(t, ir.Value) or t.is_splat for t in aligned)
    count = 1 if splat else layout.per_thread
    for j in range(count):
        scalars = [t.values[j] if isinstance(t, TileValue) else t for t in aligned]
        for column, value in zip(columns, scalar_op(op.name, result_types, scalars, attributes)):
            column.append(value)
    if splat:
        columns = [column * layout.per_thread for column in columns]
    results = [TileValue(layout, column, splat=splat) for column in columns]
    return results[0] if len(results) == 1 else results


def elementwise_layout(ctx: TileLowering, op: ir.Operation, operands: list[Any]) -> Layout:
    """The layout an elementwise op on tiles computes in, given its lowered operands."""
    tiles = [t for t in operands if isinstance(t, TileValue)]
    # A wgmma accumulator's layout leads where one takes part (attention's softmax on the scores): converting
    # a broadcast to it is cheaper than moving the accumulator out of it and back. Otherwise a tile that cannot
    # be rebuilt leads: an index or mask chain is rebuilt in its layout instead of converted.
    leader = next((t for t in tiles if not t.is_splat and t.layout.kind == WGMMA_KIND), None) \
        or _leader(ctx, op, operands) or tiles[0]
    return leader.layout


def _leader(ctx: TileLowering, op: ir.Operation, operands: list[Any]) -> TileValue | None:
    """The first non-splat tile operand that cannot be rebuilt in another layout (an index or mask chain can:
    rematerialise.py, so it follows), else the first non-splat one; None when all are splats."""
    tiles = [(old, t) for old, t in zip(op.operands, operands) if isinstance(t, TileValue) and not t.is_splat]
    return next((t for old, t in tiles if not rebuildable(ctx, old)), tiles[0][1] if tiles else None)


def _aligned(ctx: TileLowering, old: ir.Value, lowered: Any, layout: Layout) -> Any:
    """An operand in the op's layout: rebuilt there when it is an index or mask computation that would otherwise
    go through shared memory (rematerialise.py), else converted."""
    if not isinstance(lowered, TileValue):
        return lowered
    return rematerialised(ctx, old, lowered, layout) or convert_layout(ctx, lowered, layout)
