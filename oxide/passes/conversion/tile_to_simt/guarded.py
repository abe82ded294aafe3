"""Straight-line tile kernels: every tile load and store one predicated vector instruction per run, with no
branch.

Why. The default accesses (memory.py) test once per tile whether it lies inside the tensor and is aligned, and
at an edge once per run, so each tile access is an if/else whose results join. ptxas moves no code across such
a join, so each tile is materialised whole at every one of them: LayerNorm 4 x 1024 (a warp per row) took 128
registers and RMSNorm 78, while the same kernels' fast paths alone, as one straight block, need about 64
(ptxas then loads a row vector's run right before the arithmetic that uses it and stores each result run as
soon as it is computed).

So a kernel that qualifies (`guarded_kernel`) gets two entries, which the runtime chooses between at launch
(`guarded_variants`, like the GEMM path's variants.py):

- its own, straight-line: it requires of every view it takes innermost stride 1, its other strides and its
  innermost extent multiples of V (16 bytes of elements) and a 16-byte aligned base (the runtime checks the
  bound tensors: `vector_ready`). Each run of V elements a thread accesses is then wholly inside the tensor or
  wholly outside it, and is one predicated vector access (simt.guarded_load / guarded_store:
  `@p ld.global.nc.v4.b32`, after four zeroing moves);
- `<name>$general`, the default lowering, for any other tensors (strided, misaligned, ragged rows).

The price is a compare per run where the default fast path tests once per tile. An element at this thread's
coordinates plus the register's constant c_d is inside when, per dimension, c_d < room_d = extent_d - (origin_d
+ thread part), and the tile's origin is not negative (a negative tile index puts the whole tile before the
tensor, whatever the thread part): one compare per distinct constant.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith
from mlir.dialects import vector as vector_ops

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.ir.rules import is_op
from oxide.ir.walk import walk
from oxide.passes.conversion.tile_to_simt.access import TileAccess
from oxide.passes.conversion.tile_to_simt.context import TileLowering, ViewValue, bit_width, i_type
from oxide.passes.conversion.tile_to_simt.layouts import Layout, TileValue

# The entry of the default lowering beside a straight-line kernel (`$` is never part of a Rust name).
GENERAL_SUFFIX = "$general"
# The element width the guarded accesses move (simt.guarded_load: 32-bit registers).
_WORD_BITS = 32
_LOADS = (T.LoadOp, T.LoadOwnOp)
_STORES = (T.StoreOwnOp, T.StoreOp)


def guarded_kernel(func: ir.Operation, switch: str) -> bool:
    """Whether tile kernel `func` (not a GEMM or attention loop) is lowered straight-line: knob `guarded` "on",
    or "auto" and the kernel reduces or scans (a tile then stays live across the reduction, where the joins of
    the default accesses cost the most registers); and it qualifies: no `mma`, no raw pointers or mapped
    outputs (every view is a kernel parameter, so one test at the entry covers them all), and only 32-bit
    tiles loaded and stored."""
    if switch == "off":
        return False
    params = [a.type for a in func.regions[0].blocks[0].arguments]
    if any(T.PtrType.isinstance(t) or T.MappedMutType.isinstance(t) for t in params):
        return False
    facts = {"ok": True, "reduces": False}

    def visit(op: ir.Operation) -> ir.WalkResult:
        if is_op(op, T.MmaOp):
            facts["ok"] = False
            return ir.WalkResult.INTERRUPT
        facts["reduces"] |= is_op(op, T.ReduceOp) or is_op(op, T.ScanOp)
        moved = [op.results[0]] if any(is_op(op, c) for c in _LOADS) else \
            [op.opview.tile] if any(is_op(op, c) for c in _STORES) else []
        if any(bit_width(T.elem_of(v.type)) != _WORD_BITS for v in moved):
            facts["ok"] = False
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    walk(func, visit, ir.WalkOrder.PRE_ORDER)
    return facts["ok"] and (switch == "on" or facts["reduces"])


def guarded_variants(entry: str, func: ir.Operation) -> dict[str, Any]:
    """What the artifact records for a straight-line kernel (KernelSpec.tile): its launch-time variants in the
    order a launch tries them, the first requiring `vector_ready` tensors at the listed tile parameters."""
    views = [i for i, a in enumerate(func.regions[0].blocks[0].arguments)
             if T.ViewType.isinstance(a.type) or T.ViewMutType.isinstance(a.type)]
    return {"variants": [{"entry": entry, "vector": views}, {"entry": entry + GENERAL_SUFFIX}]}


def guarded_attribute(entry: str) -> ir.Attribute:
    """`tile.variants` on a straight-line kernel: its entry, then the default lowering's (guarded_variants)."""
    return ir.Attribute.parse(f'[{{entry = "{entry}", vector = true}}, {{entry = "{entry}{GENERAL_SUFFIX}"}}]')


class _Inside:
    """Per register of one tile access, whether its element is inside the tensor (see the module docstring).

    What is the same for all of this thread's registers (the origin's sign, the owner flag of a store, the
    dimensions no register bit reaches, such as the row of a warp-per-row tile) is tested once and folded into
    one varying dimension's room (0 when it fails), so that each run costs one compare per varying dimension."""

    def __init__(self, ctx: TileLowering, access: TileAccess, origin: list[ir.Value], store: bool) -> None:
        self.ctx, self.access = ctx, access
        rooms = [arith.subi(extent, first) for extent, first in zip(access.view.shape, access.first)]
        layout = access.layout
        self.varying = sorted({d for j in range(layout.per_thread)
                               for d, c in enumerate(layout.register_coords(j)) if c})
        ok = ctx.const(i_type(1), 1)
        for start in origin:
            ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.sge, start, ctx.i64(0)))
        for d, room in enumerate(rooms):
            if d not in self.varying:
                ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.sgt, room, ctx.i64(0)))
        # Every holder of a replicated element loads it; only its owner stores it.
        if store and access.owner is not None:
            ok = arith.andi(ok, access.owner)
        if self.varying:
            last = self.varying[-1]
            rooms[last] = arith.select(ok, rooms[last], ctx.i64(0))
        self.rooms, self.fixed_ok = rooms, ok
        self._cache: dict[tuple[int, int], ir.Value] = {}

    def __call__(self, j: int) -> ir.Value:
        """Register j's element is inside (and, for a store, this thread owns it)."""
        coords = self.access.layout.register_coords(j)
        inside = None if self.varying else self.fixed_ok
        for d in self.varying:
            key = (d, coords[d])
            if key not in self._cache:
                self._cache[key] = arith.cmpi(arith.CmpIPredicate.sgt, self.rooms[d], self.ctx.i64(coords[d]))
            inside = self._cache[key] if inside is None else arith.andi(inside, self._cache[key])
        return inside


def load_guarded(ctx: TileLowering, view: ViewValue, origin: list[ir.Value], layout: Layout, elem: ir.Type,
                 vector: int) -> TileValue:
    """The tile at `origin` of `view` in `layout`, one guarded load per run (0 outside the tensor)."""
    access = TileAccess(ctx, view, origin, layout)
    inside = _Inside(ctx, access, origin, store=False)
    run_type = ir.VectorType.get([vector], elem)
    values: list[ir.Value] = []
    for j in range(0, layout.per_thread, vector):
        run = simt.GuardedLoadOp.build(access.pointer(j, unit_inner=True), inside(j),
                                       readonly=view.tile is None, results=[run_type])
        values.extend(vector_ops.extract(run, static_position=[k], dynamic_position=[]) for k in range(vector))
    return TileValue(layout, values)


def store_guarded(ctx: TileLowering, view: ViewValue, origin: list[ir.Value], tile: TileValue, vector: int) -> None:
    """Store `tile` at `origin` of `view`, one guarded store per run (from the owners, inside the tensor)."""
    access = TileAccess(ctx, view, origin, tile.layout)
    inside = _Inside(ctx, access, origin, store=True)
    for j in range(0, tile.layout.per_thread, vector):
        run = tile.values[j:j + vector]
        packed = vector_ops.from_elements(ir.VectorType.get([vector], run[0].type), run)
        simt.GuardedStoreOp(access.pointer(j, unit_inner=True), inside(j), packed)
