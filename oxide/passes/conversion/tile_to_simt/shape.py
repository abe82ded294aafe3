"""Shape ops: splat, iota, broadcast, reshape, permute, cat, extract, to_scalar.

broadcast, reshape and permute only relabel coordinate bits, so they move no data: the result is either the
default layout, when every thread already holds what that needs, or the source's layout relabelled (a
consumer that wants another layout converts). cat and extract go through the shared scratch memory.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.passes.conversion.tile_to_simt.attention_pattern import wgmma_row_broadcast
from oxide.passes.conversion.tile_to_simt.context import TileLowering, bit_width
from oxide.passes.conversion.tile_to_simt.layouts import (
    Bit,
    Layout,
    TileValue,
    flat_bits,
)
from oxide.passes.conversion.tile_to_simt.remap import (
    flat_index,
    local_sources,
    only_if,
    remap,
    write_to_scratch,
)
from oxide.passes.conversion.tile_to_simt.rules import lowering

Relabel = Callable[[Bit], "Bit | None"]


def _relabelled(layout: Layout, shape: list[int], relabel: Relabel) -> Layout:
    def move(bit: Bit | None) -> Bit | None:
        return None if bit is None else relabel(bit)

    return Layout(tuple(shape), tuple(move(b) for b in layout.registers), tuple(move(b) for b in layout.lanes),
                  tuple(move(b) for b in layout.warps), layout.kind)


def _relabel_op(ctx: TileLowering, tile: TileValue, shape: list[int], to_source: Relabel, to_result: Relabel,
                source_index: Callable[[list[ir.Value]], ir.Value]) -> TileValue:
    """A bit-relabelling shape op: the default layout if it is register-local, else the relabelled source."""
    default = ctx.default_layout(shape)
    if tile.is_splat or local_sources(tile.layout, default, to_source) is not None:
        return remap(ctx, tile, default, to_source, source_index)
    return TileValue(_relabelled(tile.layout, shape, to_result), list(tile.values))


@lowering(T.SplatOp)
def lower_splat(ctx: TileLowering, op: T.SplatOp) -> TileValue:
    """Every element is the scalar: one register value for all."""
    return ctx.splat(ctx.scalar(op.value), ctx.default_layout(T.shape_of(op.result.type)))


@lowering(T.IotaOp)
def lower_iota(ctx: TileLowering, op: T.IotaOp) -> TileValue:
    """Each element is its coordinate."""
    shape = T.shape_of(op.result.type)
    elem = T.elem_of(op.result.type)
    layout = ctx.default_layout(shape)
    values = []
    for element in layout.coords(ctx, ctx.tid):
        coord = element.coords[0]
        width = bit_width(elem)
        values.append(coord if width == 32 else arith.extui(elem, coord) if width > 32 else arith.trunci(elem, coord))
    return TileValue(layout, values)


@lowering(T.BroadcastOp)
def lower_broadcast(ctx: TileLowering, op: T.BroadcastOp) -> TileValue:
    """Repeat along the size-1 (and new leading) dimensions."""
    tile = ctx.tile(op.source)
    src = T.shape_of(op.source.type)
    dst = T.shape_of(op.result.type)
    lead = len(dst) - len(src)

    def to_source(bit: Bit) -> Bit | None:
        d = bit.dim - lead
        return None if d < 0 or src[d] == 1 else Bit(d, bit.bit)

    def source_index(coords: list[ir.Value]) -> ir.Value:
        picked = [coords[d + lead] if src[d] > 1 else ctx.i32(0) for d in range(len(src))]
        return flat_index(ctx, picked, src)

    default = ctx.default_layout(dst)
    if tile.is_splat or local_sources(tile.layout, default, to_source) is not None:
        return remap(ctx, tile, default, to_source, source_index)
    rows = wgmma_row_broadcast(tile.layout, dst)
    if rows is not None and local_sources(tile.layout, rows, to_source) is not None:
        return remap(ctx, tile, rows, to_source, source_index)
    return _free_broadcast(tile, dst, lead)


def _free_broadcast(tile: TileValue, dst: list[int], lead: int) -> TileValue:
    """The source layout with its replicated thread bits, then new registers, covering the new dimensions."""
    layout = tile.layout
    new_bits = [b for b in flat_bits(dst) if b.dim < lead or layout.shape[b.dim - lead] == 1]

    def shift(bit: Bit | None) -> Bit | None:
        if bit is None:
            return new_bits.pop(0) if new_bits else None
        return Bit(bit.dim + lead, bit.bit)

    lanes = tuple(shift(b) for b in layout.lanes)
    warps = tuple(shift(b) for b in layout.warps)
    registers = tuple(Bit(b.dim + lead, b.bit) for b in layout.registers) + tuple(new_bits)
    result = Layout(tuple(dst), registers, lanes, warps, layout.kind)
    # The new register bits are the highest: register j repeats source register j mod per_thread.
    return TileValue(result, [tile.values[j % layout.per_thread] for j in range(result.per_thread)])


@lowering(T.ReshapeOp)
def lower_reshape(ctx: TileLowering, op: T.ReshapeOp) -> TileValue:
    """The same row-major order in another shape: flat bit i stays flat bit i."""
    tile = ctx.tile(op.source)
    src, dst = T.shape_of(op.source.type), T.shape_of(op.result.type)
    src_bits, dst_bits = flat_bits(src), flat_bits(dst)
    return _relabel_op(ctx, tile, dst, lambda b: src_bits[dst_bits.index(b)], lambda b: dst_bits[src_bits.index(b)],
                       lambda coords: flat_index(ctx, coords, dst))


@lowering(T.PermuteOp)
def lower_permute(ctx: TileLowering, op: T.PermuteOp) -> TileValue:
    """Result dimension i is source dimension perm[i]."""
    tile = ctx.tile(op.source)
    perm = list(ir.DenseI64ArrayAttr(op.operation.attributes["perm"]))
    src, dst = T.shape_of(op.source.type), T.shape_of(op.result.type)
    inverse = {p: i for i, p in enumerate(perm)}

    def source_index(coords: list[ir.Value]) -> ir.Value:
        return flat_index(ctx, [coords[inverse[d]] for d in range(len(src))], src)

    return _relabel_op(ctx, tile, dst, lambda b: Bit(perm[b.dim], b.bit), lambda b: Bit(inverse[b.dim], b.bit),
                       source_index)


@lowering(T.CatOp)
def lower_cat(ctx: TileLowering, op: T.CatOp) -> TileValue:
    """Both operands written at their places in the result, read back in the default layout."""
    a, b = ctx.tile(op.lhs), ctx.tile(op.rhs)
    dim = op.dim
    dst = T.shape_of(op.result.type)
    elem = T.elem_of(op.result.type)
    count = 1
    for extent in dst:
        count *= extent
    base = ctx.scratch(elem, count)
    ctx.scratch_begin()
    for tile, offset in ((a, 0), (b, T.shape_of(op.lhs.type)[dim])):
        for element, value in zip(tile.layout.coords(ctx, ctx.tid), tile.values):
            coords = list(element.coords)
            if offset:
                coords[dim] = arith.addi(coords[dim], ctx.i32(offset))
            with only_if(element.owner):
                ctx.scratch_store(base, flat_index(ctx, coords, dst), value)
    ctx.barrier()
    layout = ctx.default_layout(dst)
    return TileValue(layout, [ctx.scratch_load(base, flat_index(ctx, e.coords, dst), elem)
                              for e in layout.coords(ctx, ctx.tid)])


@lowering(T.ExtractOp)
def lower_extract(ctx: TileLowering, op: T.ExtractOp) -> TileValue:
    """The sub-tile at index * result shape; an index past the source traps."""
    tile = ctx.tile(op.source)
    src, dst = T.shape_of(op.source.type), T.shape_of(op.result.type)
    indices = [ctx.scalar(i) for i in op.indices]
    failed = None
    for index, s, d in zip(indices, src, dst):
        bad = arith.cmpi(arith.CmpIPredicate.uge, index, ctx.i32(s // d))
        failed = bad if failed is None else arith.ori(failed, bad)
    if failed is not None:
        with only_if(failed):
            simt.TrapOp()
    layout = ctx.default_layout(dst)
    if tile.is_splat:
        return ctx.splat(tile.values[0], layout)
    base = write_to_scratch(ctx, tile)
    ctx.barrier()
    values = []
    for element in layout.coords(ctx, ctx.tid):
        coords = [arith.addi(c, arith.muli(i, ctx.i32(d))) if d > 1 else arith.addi(c, i)
                  for c, i, d in zip(element.coords, indices, dst)]
        values.append(ctx.scratch_load(base, flat_index(ctx, coords, src), T.elem_of(op.result.type)))
    return TileValue(layout, values)


@lowering(T.ToScalarOp)
def lower_to_scalar(ctx: TileLowering, op: T.ToScalarOp) -> ir.Value:
    """A one-element tile: every thread holds its element."""
    return ctx.tile(op.source).values[0]
