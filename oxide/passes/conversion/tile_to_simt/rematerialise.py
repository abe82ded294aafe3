"""Rematerialisation: a tile computed elementwise from iotas, constants and splats of scalars is rebuilt in the
layout its consumer wants instead of being moved there.

Moving a tile between layouts that are not register-local goes through the shared scratch memory (remap.py):
a store, a block barrier, a load, and another barrier before the scratch is reused. A tile whose every element
is a function of its own coordinates and of block-uniform scalars needs none of that: each thread computes the
elements it holds in the wanted layout from their coordinates. The masks of a tile kernel are such tiles
(`iota(..).reshape(..).broadcast(..)` compared with a `broadcast_scalar`), and their consumer is often a
`select` on a tile in an mma or wgmma accumulator layout (attention's scores): rebuilt in that layout, a mask
costs what it cost in the blocked layout and no shared memory.

The rule: when an elementwise op must bring an operand to another layout and the conversion is not
register-local, the operand's defining ops are re-emitted at the consumer, per element of the wanted layout,
if they are all `tile.iota`, `tile.splat`, splat constants, `tile.broadcast`, `tile.reshape`, `tile.permute`
or elementwise arith/math ops on those (block-uniform scalars as leaves), at most MAX_OPS of them. The tile's
first lowering stays for its other uses (the canonicalizer drops it when there are none).
"""

from __future__ import annotations

from collections.abc import Sequence

from mlir import ir
from mlir.dialects import arith, math

from oxide.dialects import tile as T
from oxide.ir.rules import is_op, ops_of
from oxide.passes.conversion.tile_to_simt.scalar_ops import scalar_op
from oxide.passes.conversion.tile_to_simt.context import TileLowering, bit_width
from oxide.passes.conversion.tile_to_simt.driver import attributes_of
from oxide.passes.conversion.tile_to_simt.fp8 import is_fp8
from oxide.passes.conversion.tile_to_simt.layouts import Layout, TileValue
from oxide.passes.conversion.tile_to_simt.remap import flat_index, identity, local_sources

# Upstream arith/math ops on tiles are the tile dialect's elementwise part: every one of them has the
# elementwise rule, except the constant, which has its own.
ELEMENTWISE_OPS = tuple(cls for cls in ops_of(arith, math) if cls.OPERATION_NAME != arith.ConstantOp.OPERATION_NAME)
_ELEMENTWISE_NAMES = frozenset(cls.OPERATION_NAME for cls in ELEMENTWISE_OPS)
# The most ops one rematerialisation re-emits (per element): a mask's chain is under ten; past this bound a
# chain is recomputation we do not want to pay per element, and the shared-memory conversion serves.
MAX_OPS = 24


class _Unsupported(Exception):
    """The chain holds an op this rule does not rebuild (or too many)."""


def rebuildable(ctx: TileLowering, old: ir.Value) -> bool:
    """Whether the tile `old` could be rebuilt in any layout (its defining ops qualify: module docstring)."""
    try:
        _Rebuilder(ctx).check(old)
    except _Unsupported:
        return False
    return True


def rematerialised(ctx: TileLowering, old: ir.Value, tile: TileValue, layout: Layout) -> TileValue | None:
    """`old` (lowered as `tile`) rebuilt in `layout` at the current point, when its layout differs, the move is
    not register-local and its defining ops qualify (module docstring); else None."""
    if tile.is_splat or tile.layout == layout or local_sources(tile.layout, layout, identity) is not None:
        return None
    return rebuilt(ctx, old, layout)


def rebuilt(ctx: TileLowering, old: ir.Value, layout: Layout) -> TileValue | None:
    """`old` rebuilt in `layout` at the current point whatever its lowered form, when its defining ops qualify
    (module docstring); else None. A mask skipped in some steps (mask_elision.py) is rebuilt under the branch
    that needs it, so that the steps that skip it do not compute it either."""
    rebuilder = _Rebuilder(ctx)
    try:
        rebuilder.check(old)
    except _Unsupported:
        return None
    coords = [element.coords for element in layout.coords(ctx, ctx.tid)]
    built = rebuilder.build(old, coords)
    if isinstance(built, ir.Value):
        return ctx.splat(built, layout)
    return TileValue(layout, built)


class _Rebuilder:
    """Re-emits one chain: `check` walks it first (nothing emitted for a chain that does not qualify), `build`
    emits it for given per-register coordinates, once per (value, coordinates)."""

    def __init__(self, ctx: TileLowering) -> None:
        self.ctx = ctx
        self.seen: set[ir.Value] = set()
        self.built: dict[tuple[ir.Value, tuple[tuple[ir.Value, ...], ...]], ir.Value | list[ir.Value]] = {}

    def check(self, old: ir.Value) -> None:
        if old in self.seen or not isinstance(old.type, ir.RankedTensorType):
            return
        self.seen.add(old)
        if len(self.seen) > MAX_OPS or isinstance(old, ir.BlockArgument):
            raise _Unsupported
        op = old.owner.operation
        if is_op(op, T.IotaOp, T.SplatOp) or _splat_constant(op):
            return
        if is_op(op, T.BroadcastOp, T.ReshapeOp, T.PermuteOp) or _elementwise(op):
            for operand in op.operands:
                self.check(operand)
            return
        raise _Unsupported

    def build(self, old: ir.Value, coords: list[list[ir.Value]]) -> ir.Value | list[ir.Value]:
        if not isinstance(old.type, ir.RankedTensorType):
            return self.ctx.scalar(old)
        key = (old, tuple(tuple(c) for c in coords))
        if key not in self.built:
            self.built[key] = self._emit(old, coords)
        return self.built[key]

    def _emit(self, old: ir.Value, coords: list[list[ir.Value]]) -> ir.Value | list[ir.Value]:
        op = old.owner.operation
        lowered = self.ctx.lowered(old)
        if isinstance(lowered, TileValue) and lowered.is_splat:
            return lowered.values[0]  # splats and splat constants, as their own lowering made them
        if is_op(op, T.IotaOp):
            return [_as_elem(c[0], T.elem_of(old.type)) for c in coords]
        if is_op(op, T.BroadcastOp):
            return self.build(op.operands[0], [self._broadcast_source(op, c) for c in coords])
        if is_op(op, T.ReshapeOp):
            src, dst = T.shape_of(op.operands[0].type), T.shape_of(old.type)
            return self.build(op.operands[0], [self._split(flat_index(self.ctx, c, dst), src) for c in coords])
        if is_op(op, T.PermuteOp):
            perm = list(ir.DenseI64ArrayAttr(op.attributes["perm"]))
            inverse = {p: i for i, p in enumerate(perm)}
            return self.build(op.operands[0], [[c[inverse[d]] for d in range(len(perm))] for c in coords])
        return self._elementwise(op, coords)

    def _elementwise(self, op: ir.Operation, coords: list[list[ir.Value]]) -> ir.Value | list[ir.Value]:
        operands = [self.build(v, coords) for v in op.operands]
        result = op.results[0].type
        elem = T.elem_of(result) if isinstance(result, ir.RankedTensorType) else result
        attributes = attributes_of(op)
        uniform = all(isinstance(v, ir.Value) for v in operands)
        values = []
        for j in range(1 if uniform else len(coords)):
            scalars = [v if isinstance(v, ir.Value) else v[j] for v in operands]
            values.append(scalar_op(op.name, [elem], scalars, attributes)[0])
        return values[0] if uniform else values

    def _broadcast_source(self, op: ir.Operation, coords: Sequence[ir.Value]) -> list[ir.Value]:
        src, dst = T.shape_of(op.operands[0].type), T.shape_of(op.results[0].type)
        lead = len(dst) - len(src)
        return [coords[d + lead] if src[d] > 1 else self.ctx.i32(0) for d in range(len(src))]

    def _split(self, flat: ir.Value, shape: Sequence[int]) -> list[ir.Value]:
        """The coordinates of row-major flat index `flat` (i32) in a power-of-two `shape`."""
        outermost = next((d for d, extent in enumerate(shape) if extent > 1), None)
        coords = []
        shift = 0
        for d in reversed(range(len(shape))):
            if shape[d] == 1:
                coords.append(self.ctx.i32(0))
                continue
            field = arith.shrui(flat, self.ctx.i32(shift)) if shift else flat
            # The flat index is below the tile's size: the outermost coordinate needs no mask.
            coords.append(field if d == outermost else arith.andi(field, self.ctx.i32(shape[d] - 1)))
            shift += shape[d].bit_length() - 1
        return coords[::-1]


def _splat_constant(op: ir.Operation) -> bool:
    return is_op(op, arith.ConstantOp) and ir.DenseElementsAttr(op.attributes["value"]).is_splat


def _elementwise(op: ir.Operation) -> bool:
    """An arith/math op on tiles with one result, no regions and no fp8 (whose conversions are not per element)."""
    if op.name not in _ELEMENTWISE_NAMES or len(op.results) != 1 or len(op.regions):
        return False
    return not any(is_fp8(v.type) for v in [*op.operands, *op.results])


def _as_elem(coord: ir.Value, elem: ir.Type) -> ir.Value:
    """An i32 coordinate as an iota's element type."""
    width = bit_width(elem)
    return coord if width == 32 else arith.extui(elem, coord) if width > 32 else arith.trunci(elem, coord)
