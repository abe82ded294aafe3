"""Global memory: block ids and extents, partitions, tile loads and stores (masked at the tensor's edge),
a block's own output tile, and the own-sub-grid check of `partition_mut` stores.

Each element this thread holds is at global index origin + coordinate per dimension; its address is
sum(index_d * stride_d) elements from the view's pointer (i64). Loads read 0 where any index is past the
extent; stores drop such elements, and replicated layouts store from the owner thread only. When the
layout gives a thread V contiguous elements along the innermost dimension and that dimension's stride is 1,
the V elements move as one vector access if the whole group is inside the tensor and the address is
V-element aligned (checked at run time; scalar accesses otherwise). A straight-line kernel (guarded.py) makes
each run one predicated access instead.
"""

from __future__ import annotations

import dataclasses

from mlir import ir
from mlir.dialects import arith, scf
from mlir.dialects import vector as vector_ops

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.ir.rules import LoweringError, is_op
from oxide.passes.conversion.tile_to_simt.access import TileAccess
from oxide.passes.conversion.tile_to_simt.fp8 import is_fp8
from oxide.passes.conversion.tile_to_simt.guarded import load_guarded, store_guarded
from oxide.passes.conversion.tile_to_simt.context import (
    PartitionValue,
    TileLowering,
    ViewValue,
    bit_width,
    i_type,
)
from oxide.passes.conversion.tile_to_simt.layouts import (
    VECTOR_BYTES,
    Layout,
    TileValue,
    flat_bits,
    vector_width,
)
from oxide.passes.conversion.tile_to_simt.remap import convert_layout, only_if
from oxide.passes.conversion.tile_to_simt.rules import lowering
from oxide.passes.conversion.tile_to_simt.run_sinking import fed_by_run_loads, loads_per_run, sink_into_run
from oxide.ir.declare import int_value

_AXES = "xyz"


def _axis(op: object) -> str:
    return ir.StringAttr(op.operation.attributes["axis"]).value


@lowering(T.BlockIdOp)
def lower_block_id(ctx: TileLowering, op: T.BlockIdOp) -> ir.Value:
    """blockIdx along the axis (a persistent kernel's current tile)."""
    return ctx.block_id(_axis(op))


@lowering(T.NumBlocksOp)
def lower_num_blocks(ctx: TileLowering, op: T.NumBlocksOp) -> ir.Value:
    """gridDim along the axis (a persistent kernel's tile grid)."""
    return ctx.num_blocks(_axis(op))


@lowering(T.DimOp)
def lower_dim(ctx: TileLowering, op: T.DimOp) -> ir.Value:
    """The view's extent (the ABI passes it as i64)."""
    view: ViewValue = ctx.lowered(op.view)
    return arith.trunci(i_type(32), view.shape[op.axis])


@lowering(T.NumTilesOp)
def lower_num_tiles(ctx: TileLowering, op: T.NumTilesOp) -> ir.Value:
    """ceil(extent / tile) for a read-only partition; the own sub-grid's size for partition_mut."""
    part: PartitionValue = ctx.lowered(op.partition)
    if part.own_grid is not None:
        return ctx.i32(part.own_grid[op.axis])
    extent = part.view.shape[op.axis]
    tile = part.tile[op.axis]
    tiles = arith.divui(arith.addi(extent, ctx.i64(tile - 1)), ctx.i64(tile))
    return arith.trunci(i_type(32), tiles)


@lowering(T.PartitionOp)
def lower_partition(ctx: TileLowering, op: T.PartitionOp) -> PartitionValue:
    """A read-only partition: the view and the tile shape."""
    return PartitionValue(ctx.lowered(op.view), T.shape_of(op.result.type))


@lowering(T.PartitionMutOp)
def lower_partition_mut(ctx: TileLowering, op: T.PartitionMutOp) -> PartitionValue:
    """A partition of the block's own tile: its sub-grid is own tile / tile shape."""
    view: ViewValue = ctx.lowered(op.view)
    tile = T.shape_of(op.result.type)
    return PartitionValue(view, tile, [o // t for o, t in zip(view.tile or [], tile)])


def _origin(ctx: TileLowering, base: list[ir.Value] | None, indices: list[ir.Value], tile: list[int]) -> list[ir.Value]:
    """base + index * tile per dimension (i64)."""
    origin = []
    for d, (index, extent) in enumerate(zip(indices, tile)):
        start = ctx.to_i64(index) if extent == 1 else arith.muli(_signed_i64(index), ctx.i64(extent))
        origin.append(start if base is None else arith.addi(base[d], start))
    return origin


def _signed_i64(index: ir.Value) -> ir.Value:
    # A negative tile index must stay negative (and so fail the bounds test), not wrap to a huge unsigned one.
    return index if str(index.type) == "i64" else arith.extsi(i_type(64), index)


def vector_elements(layout: Layout, elem: ir.Type) -> int:
    """How many elements each vector access moves: the layout's contiguous run, at most 16 bytes."""
    bits = bit_width(elem)
    if bits < 8:
        return 1
    return max(1, min(vector_width(layout), VECTOR_BYTES * 8 // bits))


def coalesced(layout: Layout) -> bool:
    """Whether neighbouring lanes hold neighbouring runs of the row-major order (lane 0's bit follows the
    register run along the innermost dimension), so that a warp's accesses fall in few memory segments."""
    order = flat_bits(layout.shape)
    run = vector_width(layout).bit_length() - 1
    return run >= len(order) or layout.lanes[0] in (order[run], None)


def _aligned(ctx: TileLowering, view: ViewValue, vector: int) -> ir.Value:
    """Whether every vector of `vector` elements is contiguous and aligned: innermost stride 1, the other
    strides multiples of the vector, the base address aligned to its size (the same for every thread)."""
    ok = arith.cmpi(arith.CmpIPredicate.eq, view.strides[-1], ctx.i64(1))
    for stride in view.strides[:-1]:
        ok = arith.andi(ok, _multiple(ctx, stride, vector))
    address = simt.PtrToIntOp.build(view.ptr, results=[i_type(64)])
    return arith.andi(ok, _multiple(ctx, address, vector * bit_width(view.elem) // 8))


def _multiple(ctx: TileLowering, value: ir.Value, of: int) -> ir.Value:
    low = arith.andi(value, ctx.i64(of - 1))
    return arith.cmpi(arith.CmpIPredicate.eq, low, ctx.i64(0))


def _vector_type(vector: int, elem: ir.Type) -> ir.Type:
    return ir.VectorType.get([vector], elem)


def _vector_pointer(address: ir.Value, vector: int, elem: ir.Type) -> ir.Value:
    # Views are global tensors (address space 1).
    return simt.PtrCastOp.build(address, results=[simt.PtrType.get(_vector_type(vector, elem), 1)])


def _split(vector: ir.Value, lanes: int) -> list[ir.Value]:
    return [vector_ops.extract(vector, static_position=[k], dynamic_position=[]) for k in range(lanes)]


def _load_run(address: ir.Value, vector: int, elem: ir.Type) -> ir.Value:
    """An unmasked load of `vector` contiguous elements: one scalar, or one vector (aligned)."""
    if vector == 1:
        return simt.PtrLoadOp.build(address, results=[elem])
    return simt.PtrLoadOp.build(_vector_pointer(address, vector, elem), results=[_vector_type(vector, elem)])


def _edge_load(ctx: TileLowering, access: TileAccess, j: int, vector: int, elem: ir.Type,
               aligned: ir.Value | None) -> list[ir.Value]:
    """The run from register j at the tensor's edge: one vector load when it is wholly inside and aligned
    (then the innermost stride is 1), else a masked load of the part inside (0 past it)."""
    count, address = access.count(j), access.pointer(j)
    masked = (address, access.view.strides[-1], count)
    if aligned is None:
        return _split(simt.MaskedLoadOp.build(*masked, results=[_vector_type(vector, elem)]), vector)
    whole = scf.IfOp(arith.andi(aligned, arith.cmpi(arith.CmpIPredicate.sge, count, ctx.i64(vector))),
                     [_vector_type(vector, elem)], has_else=True)
    with ir.InsertionPoint(whole.then_block):
        scf.YieldOp([_load_run(address, vector, elem)])
    with ir.InsertionPoint(whole.else_block):
        scf.YieldOp([simt.MaskedLoadOp.build(*masked, results=[_vector_type(vector, elem)])])
    return _split(whole.result, vector)


def _bytes_view(view: ViewValue) -> ViewValue:
    """An fp8 view as one of i8 (LLVM has no fp8 type: fp8 data moves as bytes; fp8.py converts them)."""
    i8 = ir.IntegerType.get_signless(8)
    return dataclasses.replace(view, elem=i8, ptr=simt.PtrCastOp.build(view.ptr, results=[simt.PtrType.get(i8, 1)]))


def load_tile(ctx: TileLowering, view: ViewValue, origin: list[ir.Value], shape: list[int], elem: ir.Type,
              per_run: bool = False) -> TileValue:
    """The tile of `shape` at `origin` of `view`, in the default layout; 0 past the tensor's edge.
    An fp8 tile loads as bytes, each bitcast to fp8. `per_run`: one branch per run (run_sinking.py)."""
    if is_fp8(elem):
        loaded = load_tile(ctx, _bytes_view(view), origin, shape, ir.IntegerType.get_signless(8))
        return TileValue(loaded.layout, [arith.bitcast(elem, v) for v in loaded.values])
    return _load_tile(ctx, view, origin, shape, elem, per_run)


def _load_tile(ctx: TileLowering, view: ViewValue, origin: list[ir.Value], shape: list[int], elem: ir.Type,
               per_run: bool) -> TileValue:
    """load_tile of a type LLVM has.

    Three paths: the whole tile inside and aligned (unmasked vector loads); at an edge, each run that is
    wholly inside and aligned still loads as one vector, the others as a masked load of their inside part."""
    layout = ctx.default_layout(shape)
    if not shape:
        return TileValue(layout, [simt.PtrLoadOp.build(view.ptr, results=[elem])])
    vector = vector_elements(layout, elem)
    if ctx.guarded:
        return load_guarded(ctx, view, origin, layout, elem, vector)
    aligned = _aligned(ctx, view, vector) if vector > 1 else None
    access = TileAccess(ctx, view, origin, layout)
    inside = access.tile_inside(origin, shape)
    whole = inside if aligned is None else arith.andi(inside, aligned)
    if per_run:
        values = []
        for j in range(0, layout.per_thread, vector):
            run = scf.IfOp(whole, [elem] * vector, has_else=True)
            with ir.InsertionPoint(run.then_block):
                access.in_branch()
                loaded = _load_run(access.pointer(j, unit_inner=aligned is not None), vector, elem)
                scf.YieldOp([loaded] if vector == 1 else _split(loaded, vector))
            with ir.InsertionPoint(run.else_block):
                access.in_branch()
                scf.YieldOp(_edge_load(ctx, access, j, vector, elem, aligned))
            ctx.run_loads.append(run.operation)
            values.extend(run.results)
        return TileValue(layout, values)
    fast = scf.IfOp(whole, [elem] * layout.per_thread, has_else=True)
    with ir.InsertionPoint(fast.then_block):
        access.in_branch()
        values: list[ir.Value] = []
        for j in range(0, layout.per_thread, vector):
            run = _load_run(access.pointer(j, unit_inner=aligned is not None), vector, elem)
            values.extend([run] if vector == 1 else _split(run, vector))
        scf.YieldOp(values)
    with ir.InsertionPoint(fast.else_block):
        access.in_branch()
        values = []
        for j in range(0, layout.per_thread, vector):
            values.extend(_edge_load(ctx, access, j, vector, elem, aligned))
        scf.YieldOp(values)
    return TileValue(layout, list(fast.results))


def _store_run(address: ir.Value, values: list[ir.Value], packed: ir.Value | None) -> None:
    """An unmasked store of contiguous elements: one scalar, or one vector (aligned)."""
    if packed is None:
        simt.PtrStoreOp(address, values[0])
        return
    simt.PtrStoreOp(_vector_pointer(address, len(values), values[0].type), packed)


def _pack(values: list[ir.Value]) -> ir.Value:
    return vector_ops.from_elements(_vector_type(len(values), values[0].type), values)


def _edge_store(ctx: TileLowering, access: TileAccess, j: int, values: list[ir.Value],
                aligned: ir.Value | None) -> None:
    """The run from register j at the tensor's edge: one vector store when it is wholly inside and aligned
    (then the innermost stride is 1), else a masked store of the part inside."""
    count, address, packed = access.count(j), access.element_pointer(j), _pack(values)
    masked = (address, access.view.strides[-1], count, packed)
    if aligned is None:
        simt.MaskedStoreOp(*masked)
        return
    whole = scf.IfOp(arith.andi(aligned, arith.cmpi(arith.CmpIPredicate.sge, count, ctx.i64(len(values)))),
                     has_else=True)
    with ir.InsertionPoint(whole.then_block):
        _store_run(address, values, packed)
        scf.YieldOp([])
    with ir.InsertionPoint(whole.else_block):
        simt.MaskedStoreOp(*masked)
        scf.YieldOp([])


def store_tile(ctx: TileLowering, view: ViewValue, origin: list[ir.Value], tile: TileValue) -> None:
    """Store `tile` at `origin` of `view` from its owners, dropping elements past the tensor's edge (the same
    three paths as loads). A tile whose layout would scatter a warp's stores (a transpose) goes to the
    default layout first.

    Stores address each element as `ptr + sum index * stride` rather than from a per-tile base: on the GEMM
    epilogues that leaves ptxas fewer live 64-bit offsets (sm_90a wgmma GEMM: 168 registers instead of 179)."""
    if not coalesced(tile.layout):
        tile = convert_layout(ctx, tile, ctx.default_layout(list(tile.layout.shape)))
    if is_fp8(tile.values[0].type):  # stored as bytes, as load_tile loads it
        i8 = ir.IntegerType.get_signless(8)
        view, tile = _bytes_view(view), TileValue(tile.layout, [arith.bitcast(i8, v) for v in tile.values])
    layout = tile.layout
    elem = tile.values[0].type
    if not layout.shape:
        with only_if(layout.thread_base(ctx, ctx.tid)[1]):
            simt.PtrStoreOp(view.ptr, tile.values[0])
        return
    vector = vector_elements(layout, elem)
    if ctx.guarded:
        store_guarded(ctx, view, origin, tile, vector)
        return
    aligned = _aligned(ctx, view, vector) if vector > 1 else None
    access = TileAccess(ctx, view, origin, layout)
    inside = access.tile_inside(origin, list(layout.shape))
    whole = inside if aligned is None else arith.andi(inside, aligned)
    if access.owner is None and fed_by_run_loads(ctx.run_loads, tile.values):
        for j in range(0, layout.per_thread, vector):
            values = tile.values[j:j + vector]
            run = scf.IfOp(whole, has_else=True)
            with ir.InsertionPoint(run.then_block):
                access.in_branch()
                _store_run(access.element_pointer(j), values, _pack(values) if vector > 1 else None)
                scf.YieldOp([])
            with ir.InsertionPoint(run.else_block):
                access.in_branch()
                _edge_store(ctx, access, j, values, aligned)
                scf.YieldOp([])
            sink_into_run(ctx.run_loads, values, run.operation)
        return
    with only_if(access.owner):
        fast = scf.IfOp(whole, has_else=True)
        with ir.InsertionPoint(fast.then_block):
            access.in_branch()
            for j in range(0, layout.per_thread, vector):
                values = tile.values[j:j + vector]
                _store_run(access.element_pointer(j), values, _pack(values) if vector > 1 else None)
            scf.YieldOp([])
        with ir.InsertionPoint(fast.else_block):
            access.in_branch()
            for j in range(0, layout.per_thread, vector):
                _edge_store(ctx, access, j, tile.values[j:j + vector], aligned)
            scf.YieldOp([])


@lowering(T.LoadOp)
def lower_load(ctx: TileLowering, op: T.LoadOp) -> TileValue:
    """p.load([i..]): the tile at index * tile shape."""
    part: PartitionValue = ctx.lowered(op.partition)
    indices = [ctx.scalar(i) for i in op.indices]
    per_run = ctx.run_loads is not None and loads_per_run(ctx, op)
    return load_tile(ctx, part.view, _origin(ctx, part.view.origin, indices, part.tile), part.tile,
                     T.elem_of(op.result.type), per_run)


@lowering(T.LoadOwnOp)
def lower_load_own(ctx: TileLowering, op: T.LoadOwnOp) -> TileValue:
    """The block's own output tile."""
    view: ViewValue = ctx.lowered(op.view)
    return load_tile(ctx, view, view.origin, view.tile, view.elem)


@lowering(T.StoreOwnOp)
def lower_store_own(ctx: TileLowering, op: T.StoreOwnOp) -> None:
    """Write the block's own output tile."""
    view: ViewValue = ctx.lowered(op.view)
    store_tile(ctx, view, view.origin, ctx.tile(op.tile))


@lowering(T.StoreOp)
def lower_store(ctx: TileLowering, op: T.StoreOp) -> None:
    """A tile into the block's own sub-grid; an index outside it traps (a compile error when constant)."""
    part: PartitionValue = ctx.lowered(op.partition)
    indices = [ctx.scalar(i) for i in op.indices]
    failed = None
    for d, (index, limit) in enumerate(zip(indices, part.own_grid or [])):
        constant = _constant_int(index)
        if constant is not None:
            if not 0 <= constant < limit:
                raise LoweringError(f"tile index {constant} along dimension {d} is outside this block's own "
                                    f"sub-grid of {limit} tiles: a block writes only its own output tile")
            continue
        bad = arith.cmpi(arith.CmpIPredicate.uge, index, ctx.i32(limit))
        failed = bad if failed is None else arith.ori(failed, bad)
    if failed is not None:
        with only_if(failed):
            simt.TrapOp()
    store_tile(ctx, part.view, _origin(ctx, part.view.origin, indices, part.tile), ctx.tile(op.tile))


def _constant_int(value: ir.Value) -> int | None:
    owner = value.owner
    if not is_op(owner, arith.ConstantOp):
        return None
    return int_value(owner.attributes["value"])
