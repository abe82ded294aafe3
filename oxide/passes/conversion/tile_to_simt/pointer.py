"""Pointer-tile loads and stores: `tile.load_ptr` reads `ptr[offset]` for each element this thread holds whose
mask holds (the padding elsewhere); `tile.store_ptr` writes each masked-in element from its owner thread only
(a replicated layout would otherwise store it several times). Every access is one scalar global load or store
under a branch: the addresses are data, so nothing is known to be contiguous."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.layouts import TileValue
from oxide.passes.conversion.tile_to_simt.remap import convert_layout, only_if
from oxide.passes.conversion.tile_to_simt.rules import lowering


def _common(ctx: TileLowering, values: list[ir.Value]) -> list[TileValue]:
    """The tiles of `values` in one layout: the first that is not a splat (a splat fits any layout)."""
    tiles = [ctx.tile(v) for v in values]
    leader = next((t for t in tiles if not t.is_splat), tiles[0])
    return [convert_layout(ctx, t, leader.layout) for t in tiles]


def _address(ptr: ir.Value, offset: ir.Value) -> ir.Value:
    return simt.PtrOffsetOp.build(ptr, arith.index_cast(ir.IndexType.get(), offset))


@lowering(T.LoadPtrOp)
def lower_load_ptr(ctx: TileLowering, op: T.LoadPtrOp) -> TileValue:
    """Per element this thread holds: ptr[offset] where the mask holds, else the padding."""
    offsets, mask = _common(ctx, [op.offsets, op.mask])
    elem = T.elem_of(op.result.type)
    ptr, padding = ctx.lowered(op.ptr), ctx.scalar(op.padding)
    loaded = []
    for offset, active in zip(offsets.values, mask.values):
        branch = scf.IfOp(active, [elem], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            scf.YieldOp([simt.PtrLoadOp.build(_address(ptr, offset), results=[elem])])
        with ir.InsertionPoint(branch.else_block):
            scf.YieldOp([padding])
        loaded.append(branch.result)
    return TileValue(offsets.layout, loaded)


@lowering(T.StorePtrOp)
def lower_store_ptr(ctx: TileLowering, op: T.StorePtrOp) -> None:
    """Per element this thread owns: ptr[offset] = value where the mask holds."""
    offsets, values, mask = _common(ctx, [op.offsets, op.values, op.mask])
    ptr = ctx.lowered(op.ptr)
    for element, offset, value, active in zip(offsets.layout.coords(ctx, ctx.tid), offsets.values, values.values,
                                              mask.values):
        with only_if(active if element.owner is None else arith.andi(active, element.owner)):
            simt.PtrStoreOp(_address(ptr, offset), value)
