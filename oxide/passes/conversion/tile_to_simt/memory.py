"""Global memory: block ids and extents, partitions, tile loads and stores (masked at the tensor's edge),
a block's own output tile, and the own-sub-grid check of `partition_mut` stores.

Each element this thread holds is at global index origin + coordinate per dimension; its address is
sum(index_d * stride_d) elements from the view's pointer (i64). Loads read 0 where any index is past the
extent; stores drop such elements, and replicated layouts store from the owner thread only. When the
layout gives a thread V contiguous elements along the innermost dimension and that dimension's stride is 1,
the V elements move as one vector access if the whole group is inside the tensor and the address is
V-element aligned (checked at run time; scalar accesses otherwise).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf
from mlir.dialects import vector as vector_ops

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.ir.rules import LoweringError, is_op
from oxide.passes.conversion.tile_to_simt.context import (
    PartitionValue,
    TileLowering,
    ViewValue,
    bit_width,
    i_type,
)
from oxide.passes.conversion.tile_to_simt.layouts import (
    VECTOR_BYTES,
    Element,
    Layout,
    TileValue,
    flat_bits,
    vector_width,
)
from oxide.passes.conversion.tile_to_simt.remap import convert_layout, only_if
from oxide.passes.conversion.tile_to_simt.rules import lowering
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


def _global_indices(ctx: TileLowering, origin: list[ir.Value], element: Element) -> list[ir.Value]:
    return [arith.addi(o, ctx.to_i64(c)) for o, c in zip(origin, element.coords)]


def _inside(ctx: TileLowering, view: ViewValue, indices: list[ir.Value]) -> ir.Value | None:
    """index_d < extent_d for every d (unsigned, so a negative index is outside too)."""
    cond = None
    for index, extent in zip(indices, view.shape):
        ok = arith.cmpi(arith.CmpIPredicate.ult, index, extent)
        cond = ok if cond is None else arith.andi(cond, ok)
    return cond


def _address(ctx: TileLowering, view: ViewValue, indices: list[ir.Value]) -> ir.Value:
    offset = None
    for index, stride in zip(indices, view.strides):
        term = arith.muli(index, stride)
        offset = term if offset is None else arith.addi(offset, term)
    if offset is None:
        return view.ptr
    return simt.PtrOffsetOp.build(view.ptr, ctx.index(offset))


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


def _tile_inside(ctx: TileLowering, view: ViewValue, origin: list[ir.Value], shape: list[int]) -> ir.Value:
    """Whether the whole tile lies inside the tensor (the same for every thread of the block)."""
    ok = ctx.const(i_type(1), 1)
    for start, extent, size in zip(origin, view.shape, shape):
        ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.sge, start, ctx.i64(0)))
        ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.sle, arith.addi(start, ctx.i64(size)), extent))
    return ok


def _aligned(ctx: TileLowering, view: ViewValue, vector: int) -> ir.Value:
    """Whether every vector of `vector` elements is contiguous and aligned: innermost stride 1, the other
    strides multiples of the vector, the base address aligned to its size (the same for every thread)."""
    ok = arith.cmpi(arith.CmpIPredicate.eq, view.strides[-1], ctx.i64(1))
    for stride in view.strides[:-1]:
        ok = arith.andi(ok, _multiple(ctx, stride, vector))
    address = simt.PtrToIntOp.build(view.ptr)
    return arith.andi(ok, _multiple(ctx, address, vector * bit_width(view.elem) // 8))


def _group_inside(ctx: TileLowering, view: ViewValue, indices: list[ir.Value], vector: int) -> ir.Value:
    """Whether the `vector` elements from `indices` along the innermost dimension are all inside."""
    last = indices[:-1] + [arith.addi(indices[-1], ctx.i64(vector - 1))]
    return _inside(ctx, view, last)


def _multiple(ctx: TileLowering, value: ir.Value, of: int) -> ir.Value:
    low = arith.andi(value, ctx.i64(of - 1))
    return arith.cmpi(arith.CmpIPredicate.eq, low, ctx.i64(0))


def _vector_pointer(address: ir.Value, vector: int, elem: ir.Type) -> ir.Value:
    return simt.PtrCastOp.build(address, results=[ir.Type.parse(f"!simt.ptr<vector<{vector}x{elem}>, 1>")])


def _vector_load(ctx: TileLowering, view: ViewValue, indices: list[ir.Value], vector: int,
                 elem: ir.Type) -> list[ir.Value]:
    address = _address(ctx, view, indices)
    if vector == 1:
        return [simt.PtrLoadOp.build(address, results=[elem])]
    loaded = simt.PtrLoadOp.build(_vector_pointer(address, vector, elem), results=[ir.VectorType.get([vector], elem)])
    return [vector_ops.extract(loaded, static_position=[k], dynamic_position=[]) for k in range(vector)]


def _vector_store(ctx: TileLowering, view: ViewValue, indices: list[ir.Value], values: list[ir.Value]) -> None:
    address = _address(ctx, view, indices)
    if len(values) == 1:
        simt.PtrStoreOp(address, values[0])
        return
    packed = vector_ops.from_elements(ir.VectorType.get([len(values)], values[0].type), values)
    simt.PtrStoreOp(_vector_pointer(address, len(values), values[0].type), packed)


def load_tile(ctx: TileLowering, view: ViewValue, origin: list[ir.Value], shape: list[int], elem: ir.Type) -> TileValue:
    """The tile of `shape` at `origin` of `view`, in the default layout; 0 past the tensor's edge.

    Three paths: the whole tile inside and aligned (unmasked vector loads); at an edge, each vector that is
    wholly inside still loads as one; the elements of the others load one by one, masked."""
    layout = ctx.default_layout(shape)
    elements = layout.coords(ctx, ctx.tid)
    if not shape:
        return TileValue(layout, [simt.PtrLoadOp.build(view.ptr, results=[elem])])
    vector = vector_elements(layout, elem)
    aligned = _aligned(ctx, view, vector) if vector > 1 else None
    inside = _tile_inside(ctx, view, origin, shape)
    fast = scf.IfOp(inside if aligned is None else arith.andi(inside, aligned), [elem] * layout.per_thread,
                    has_else=True)
    with ir.InsertionPoint(fast.then_block):
        values: list[ir.Value] = []
        for j in range(0, layout.per_thread, vector):
            values.extend(_vector_load(ctx, view, _global_indices(ctx, origin, elements[j]), vector, elem))
        scf.YieldOp(values)
    with ir.InsertionPoint(fast.else_block):
        values = []
        for j in range(0, layout.per_thread, vector):
            group = [_global_indices(ctx, origin, e) for e in elements[j:j + vector]]
            if aligned is None:
                values.append(_masked_load(ctx, view, group[0], elem))
                continue
            whole = scf.IfOp(arith.andi(aligned, _group_inside(ctx, view, group[0], vector)), [elem] * vector,
                             has_else=True)
            with ir.InsertionPoint(whole.then_block):
                scf.YieldOp(_vector_load(ctx, view, group[0], vector, elem))
            with ir.InsertionPoint(whole.else_block):
                scf.YieldOp([_masked_load(ctx, view, indices, elem) for indices in group])
            values.extend(whole.results)
        scf.YieldOp(values)
    return TileValue(layout, list(fast.results))


def _masked_load(ctx: TileLowering, view: ViewValue, indices: list[ir.Value], elem: ir.Type) -> ir.Value:
    branch = scf.IfOp(_inside(ctx, view, indices), [elem], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.YieldOp([simt.PtrLoadOp.build(_address(ctx, view, indices), results=[elem])])
    with ir.InsertionPoint(branch.else_block):
        scf.YieldOp([ctx.zero(elem)])
    return branch.result


def store_tile(ctx: TileLowering, view: ViewValue, origin: list[ir.Value], tile: TileValue) -> None:
    """Store `tile` at `origin` of `view` from its owners, dropping elements past the tensor's edge (the same
    three paths as loads). A tile whose layout would scatter a warp's stores (a transpose) goes to the
    default layout first."""
    if not coalesced(tile.layout):
        tile = convert_layout(ctx, tile, ctx.default_layout(list(tile.layout.shape)))
    layout = tile.layout
    elements = layout.coords(ctx, ctx.tid)
    elem = tile.values[0].type
    vector = vector_elements(layout, elem) if layout.shape else 1
    aligned = _aligned(ctx, view, vector) if vector > 1 else None
    inside = _tile_inside(ctx, view, origin, list(layout.shape))
    fast = scf.IfOp(inside if aligned is None else arith.andi(inside, aligned), has_else=True)
    with ir.InsertionPoint(fast.then_block):
        for j in range(0, layout.per_thread, vector):
            with only_if(elements[j].owner):
                _vector_store(ctx, view, _global_indices(ctx, origin, elements[j]), tile.values[j:j + vector])
        scf.YieldOp([])
    with ir.InsertionPoint(fast.else_block):
        for j in range(0, layout.per_thread, vector):
            group = [_global_indices(ctx, origin, e) for e in elements[j:j + vector]]
            with only_if(elements[j].owner):
                if aligned is None:
                    _masked_store(ctx, view, group[0], tile.values[j])
                    continue
                whole = scf.IfOp(arith.andi(aligned, _group_inside(ctx, view, group[0], vector)), has_else=True)
                with ir.InsertionPoint(whole.then_block):
                    _vector_store(ctx, view, group[0], tile.values[j:j + vector])
                    scf.YieldOp([])
                with ir.InsertionPoint(whole.else_block):
                    for indices, value in zip(group, tile.values[j:j + vector]):
                        _masked_store(ctx, view, indices, value)
                    scf.YieldOp([])
        scf.YieldOp([])


def _masked_store(ctx: TileLowering, view: ViewValue, indices: list[ir.Value], value: ir.Value) -> None:
    with only_if(_inside(ctx, view, indices)):
        simt.PtrStoreOp(_address(ctx, view, indices), value)


@lowering(T.LoadOp)
def lower_load(ctx: TileLowering, op: T.LoadOp) -> TileValue:
    """p.load([i..]): the tile at index * tile shape."""
    part: PartitionValue = ctx.lowered(op.partition)
    indices = [ctx.scalar(i) for i in op.indices]
    return load_tile(ctx, part.view, _origin(ctx, part.view.origin, indices, part.tile), part.tile,
                     T.elem_of(op.result.type))


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
