"""Pointer-tile atomics: `tile.atomic_rmw(ptr, offsets, values, mask)` becomes one device-scope relaxed
`simt.atomic_rmw` per element whose mask holds, done by the element's owner thread only (a replicated
layout would otherwise apply it several times); the old values then reach every holder through shared
memory."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.ir.rules import LoweringError
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.layouts import TileValue
from oxide.passes.conversion.tile_to_simt.remap import convert_layout, flat_index, write_to_scratch
from oxide.passes.conversion.tile_to_simt.rules import lowering

_FLOAT_KINDS = {"add": "fadd", "xchg": "xchg"}


@lowering(T.AtomicRmwOp)
def lower_atomic_rmw(ctx: TileLowering, op: T.AtomicRmwOp) -> TileValue:
    """Per element: old = atomic kind(ptr + offset, value) where mask holds, else 0."""
    kind = ir.StringAttr(op.operation.attributes["kind"]).value
    elem = T.elem_of(op.values.type)
    if str(elem) in ("f16", "bf16", "f32", "f64"):
        if kind not in _FLOAT_KINDS or str(elem) == "bf16":
            raise LoweringError(f"atomic {kind} on {elem} is not supported (floats take add and xchg; f16, f32, f64)")
        kind = _FLOAT_KINDS[kind]
    tiles = [ctx.tile(v) for v in (op.offsets, op.values, op.mask)]
    leader = next((t for t in tiles if not t.is_splat), tiles[0])
    offsets, values, mask = (convert_layout(ctx, t, leader.layout) for t in tiles)
    layout = leader.layout
    ptr = ctx.lowered(op.ptr)
    olds = []
    for element, offset, value, active in zip(layout.coords(ctx, ctx.tid), offsets.values, values.values, mask.values):
        cond = active if element.owner is None else arith.andi(active, element.owner)
        branch = scf.IfOp(cond, [elem], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            address = simt.PtrOffsetOp.build(ptr, arith.index_cast(ir.IndexType.get(), offset))
            scf.YieldOp([simt.AtomicRmwOp.build(address, value, kind=kind, scope="device", ordering="relaxed")])
        with ir.InsertionPoint(branch.else_block):
            scf.YieldOp([ctx.zero(elem)])
        olds.append(branch.result)
    result = TileValue(layout, olds)
    if not layout.replicated:
        return result
    base = write_to_scratch(ctx, result)
    ctx.barrier()
    return TileValue(layout, [ctx.scratch_load(base, flat_index(ctx, e.coords, layout.shape), elem)
                              for e in layout.coords(ctx, ctx.tid)])
