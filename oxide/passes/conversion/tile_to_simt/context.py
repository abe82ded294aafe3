"""TileLowering: the state of lowering one tile kernel (value map, thread id, constants, shared scratch memory),
and the lowered forms of views and partitions.

Rules (rules.py) see only this object: it maps each tile-kernel value to its lowered form, builds constants
at the kernel's entry (where they dominate every use), and hands out the block-wide shared scratch memory
that layout conversions, reductions and mma staging reuse, with the barriers that reuse needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mlir import ir
from mlir.dialects import arith, builtin
from mlir.dialects import vector as vector_d

from oxide.dialects import simt
from oxide.ir.rules import LoweringError
from oxide.passes.conversion.tile_to_simt.layouts import Layout, TileValue, blocked
from oxide.target import Target


def i_type(width: int) -> ir.Type:
    """The signless integer type of `width` bits."""
    return ir.IntegerType.get_signless(width)


def ptr_offset(ptr: ir.Value, offset: ir.Value) -> ir.Value:
    """simt.ptr_offset of `ptr` by `offset` (index) elements. The result type is given, not inferred: inferring
    it parses the pointer type, and the tile lowering offsets pointers thousands of times per kernel."""
    return simt.PtrOffsetOp.build(ptr, offset, results=[ptr.type])


def store_shared(ptr: ir.Value, values: list[ir.Value]) -> None:
    """Store `values` (adjacent elements) at the shared-memory `ptr`: one scalar store, or one vector store of
    them all (the caller keeps `ptr` aligned to the vector's size)."""
    if len(values) == 1:
        simt.PtrStoreOp(ptr, values[0])
        return
    vector = ir.VectorType.get([len(values)], values[0].type)
    packed = vector_d.from_elements(vector, values)
    simt.PtrStoreOp(simt.PtrCastOp.build(ptr, results=[ir.Type.parse(f"!simt.ptr<{vector}, 3>")]), packed)


# The named barrier of code that part of the block runs (0 is the block barrier's).
PART_BARRIER = 1
# scratch_store/scratch_load permute positions within rows of 2^SWIZZLE_BITS elements (one per bank).
SWIZZLE_BITS = 5


def bit_width(type_: ir.Type) -> int:
    """Bits of an integer or float type."""
    return {"f8E4M3FN": 8, "f8E5M2": 8, "f16": 16, "bf16": 16, "f32": 32, "f64": 64}.get(str(type_)) \
        or ir.IntegerType(type_).width


@dataclass
class ViewValue:
    """A lowered tensor view: global pointer, extents and strides in elements (i64 values), the element type.
    For a block's own output (`view_mut`), `tile` is its tile shape S and `origin` the first element of the
    block's own tile (block id * S per dimension, i64)."""

    ptr: ir.Value
    shape: list[ir.Value]
    strides: list[ir.Value]
    elem: ir.Type
    tile: list[int] | None = None
    origin: list[ir.Value] | None = None


@dataclass
class PartitionValue:
    """A lowered partition: its view, the tile shape, and for `partition_mut` the number of tiles of the
    block's own sub-grid per dimension (indices must stay below them)."""

    view: ViewValue
    tile: list[int]
    own_grid: list[int] | None = None


@dataclass
class _Scratch:
    placeholder: ir.Operation
    count: int = 0


@dataclass
class TileLowering:
    """What every rule sees while one kernel is lowered."""

    warps: int
    entry: ir.Block
    target: Target = Target()
    # Contiguous elements per thread in blocked layouts (one vector access): the same for every tile of the
    # kernel, so that tiles of different element types line up without conversions.
    vector: int = 4
    # Whether blocked layouts give each warp whole rows (layouts.blocked, register_budget.plan_warps).
    warps_outer: bool = False
    values: dict[Any, Any] = field(default_factory=dict)
    tid: ir.Value | None = None
    # Shared scratch arrays by storage element type (text), each sized at the end to its largest use.
    _scratch: dict[str, _Scratch] = field(default_factory=dict)
    _constants: dict[tuple[str, Any], ir.Value] = field(default_factory=dict)
    # Whether a barrier is needed before the scratch memory is written again (it was used, or we are in a loop).
    scratch_used: bool = False
    loop_depth: int = 0
    # Open regions' yield targets (innermost last): what the region's terminator converts its tiles to.
    yields: list[Any] = field(default_factory=list)
    # A persistent kernel's virtual block ids and grid, i32 per axis (gemm_kernel.py); None: the hardware's.
    block_ids: list[ir.Value] | None = None
    grid_dims: list[ir.Value] | None = None
    # The threads a barrier joins while only part of the block runs the code being emitted (the consumer
    # warps of a specialized GEMM); None: the whole block.
    barrier_threads: int | None = None
    # The kernel's sm_80 cp.async GEMM loop (mma_pipeline.py): (its GemmLoop, its PipelinePlan).
    pipeline: Any = None
    # The kernel's flash-attention loop whose q, k and v arrive by TMA (attention_tma.AttentionTma), and the
    # tensor-map parameters (q, k, v) of the lowered kernel.
    attention: Any = None
    attention_maps: list[ir.Value] = field(default_factory=list)
    # Values carried through one loop beside its own (loop_carry.LoopCarry), or None.
    loop_carry: Any = None
    # Whether tile loads and stores are predicated vector accesses of a straight-line kernel (guarded.py) rather
    # than the default per-tile fast path and edge branches (memory.py).
    guarded: bool = False
    # The per-run branches of read-only loads that a store's runs may pull down to them (run_sinking.py); None
    # where loads keep their places (a GEMM or attention plan matches them).
    run_loads: list[Any] | None = None

    # Values -------------------------------------------------------------------------------------------
    def bind(self, old: ir.Value, new: Any) -> None:
        """Record the lowered form of a tile-kernel value."""
        self.values[old] = new

    def lowered(self, old: ir.Value) -> Any:
        """The lowered form of a tile-kernel value (TileValue, ir.Value, ViewValue or PartitionValue)."""
        try:
            return self.values[old]
        except KeyError:
            raise LoweringError(f"internal error: no lowered form for a value of type {old.type}") from None

    def tile(self, old: ir.Value) -> TileValue:
        """The lowered form of a tile value."""
        value = self.lowered(old)
        if not isinstance(value, TileValue):
            raise LoweringError(f"internal error: {old.type} did not lower to a tile")
        return value

    def scalar(self, old: ir.Value) -> ir.Value:
        """The lowered form of a scalar value."""
        value = self.lowered(old)
        if not isinstance(value, ir.Value):
            raise LoweringError(f"internal error: {old.type} did not lower to a scalar")
        return value

    # Constants, hoisted to the kernel entry -----------------------------------------------------------------
    def const(self, type_: ir.Type, value: float) -> ir.Value:
        """An arith.constant at the kernel's entry (cached)."""
        key = (type_, repr(value))  # repr: -0.0 and 0.0 are different constants; types compare as values
        if key not in self._constants:
            with ir.InsertionPoint.at_block_begin(self.entry):
                if isinstance(type_, (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)):
                    made = arith.constant(type_, ir.FloatAttr.get(type_, float(value)))
                else:
                    made = arith.constant(type_, ir.IntegerAttr.get(type_, int(value)))
            self._constants[key] = made
        return self._constants[key]

    def i32(self, value: int) -> ir.Value:
        """An i32 constant."""
        return self.const(i_type(32), value)

    def i64(self, value: int) -> ir.Value:
        """An i64 constant."""
        return self.const(i_type(64), value)

    def index(self, value: ir.Value) -> ir.Value:
        """An i32/i64 value as index."""
        return arith.index_cast(ir.IndexType.get(), value)

    def to_i32(self, value: ir.Value) -> ir.Value:
        """A block-uniform index or extent (i32, i64 or index) as i32: tile indices and tile counts are i32 in
        the frontend's IR, extents and origins i64."""
        if str(value.type) == "i32":
            return value
        if str(value.type) == "index":
            return arith.index_cast(i_type(32), value)
        return arith.trunci(i_type(32), value)

    def to_i64(self, value: ir.Value) -> ir.Value:
        """A non-negative i32 value as i64 (coordinates and tile indices are never negative here)."""
        return value if str(value.type) == "i64" else arith.extui(i_type(64), value)

    def zero(self, type_: ir.Type) -> ir.Value:
        """The zero of an integer or float type."""
        return self.const(type_, 0)

    # Layouts ----------------------------------------------------------------------------------------------
    def default_layout(self, shape: list[int] | tuple[int, ...]) -> Layout:
        """The blocked layout every tile of this shape gets unless something prefers another."""
        return blocked(shape, self.warps, self.vector, self.warps_outer)

    def splat(self, value: ir.Value, layout: Layout) -> TileValue:
        """A tile whose every element is `value`."""
        return TileValue(layout, [value] * layout.per_thread, splat=True)

    # Shared scratch memory ------------------------------------------------------------------------------------
    def scratch(self, elem: ir.Type, count: int) -> ir.Value:
        """A `!simt.ptr<T, 3>` to block-wide scratch memory of at least `count` elements of `elem` (i1 is kept
        as i8: use scratch_store/scratch_load). The same memory is handed to every user: call
        `scratch_begin()` before writing it and `barrier()` between writes and reads."""
        storage = i_type(8) if str(elem) == "i1" else elem
        key = str(storage)
        if key not in self._scratch:
            with ir.InsertionPoint.at_block_begin(self.entry):
                ptr_type = ir.Type.parse(f"!simt.ptr<{storage}, 3>")
                placeholder = ir.Operation.create(builtin.UnrealizedConversionCastOp.OPERATION_NAME,
                                                  results=[ptr_type], attributes={"tile.scratch": ir.UnitAttr.get()})
            self._scratch[key] = _Scratch(placeholder)
        entry = self._scratch[key]
        # Whole 32-element rows: the swizzle moves elements within their row.
        entry.count = max(entry.count, -(-count // (1 << SWIZZLE_BITS)) << SWIZZLE_BITS)
        return entry.placeholder.result

    def scratch_begin(self) -> None:
        """A barrier before the scratch memory is written, unless no thread can still be reading it."""
        if self.scratch_used or self.loop_depth:
            self.barrier()
        self.scratch_used = True

    def barrier(self) -> None:
        """bar.sync: every thread of the block waits here (tile code is block-uniform, so all reach it), or,
        while only part of the block runs this code, every thread of that part (a named barrier)."""
        if self.barrier_threads is None:
            simt.SyncThreadsOp()
        else:
            simt.NamedBarrierOp(id=PART_BARRIER, threads=self.barrier_threads)

    # Block ids ----------------------------------------------------------------------------------------------
    def block_id(self, axis: str) -> ir.Value:
        """This block's tile id along `axis` (x, y, z): blockIdx, or a persistent kernel's current tile."""
        if self.block_ids is not None:
            return self.block_ids["xyz".index(axis)]
        return simt.BlockIdOp.build(dim=simt.DimAttr.get(axis))

    def num_blocks(self, axis: str) -> ir.Value:
        """The tile grid's extent along `axis`: gridDim, or a persistent kernel's tile grid."""
        if self.grid_dims is not None:
            return self.grid_dims["xyz".index(axis)]
        return simt.GridDimOp.build(dim=simt.DimAttr.get(axis))

    def _swizzled(self, index: ir.Value) -> ir.Value:
        # Element i of each 32-element row r goes to i ^ r: a warp reading a column of a row-major tile, or
        # writing 4-element runs of a blocked layout, touches 32 different banks instead of one or eight.
        row = arith.andi(arith.shrui(index, self.i32(SWIZZLE_BITS)), self.i32((1 << SWIZZLE_BITS) - 1))
        return arith.xori(index, row)

    def scratch_store(self, base: ir.Value, index: ir.Value, value: ir.Value) -> None:
        """scratch[index] = value (index i32; stored at a swizzled position that scratch_load undoes)."""
        if str(value.type) == "i1":
            value = arith.extui(i_type(8), value)
        ptr = ptr_offset(base, self.index(self._swizzled(index)))
        simt.PtrStoreOp(ptr, value)

    def scratch_load(self, base: ir.Value, index: ir.Value, elem: ir.Type) -> ir.Value:
        """scratch[index] (index i32) as `elem`, as scratch_store wrote it."""
        ptr = ptr_offset(base, self.index(self._swizzled(index)))
        storage = i_type(8) if str(elem) == "i1" else elem
        value = simt.PtrLoadOp.build(ptr, results=[storage])
        return arith.trunci(elem, value) if str(elem) == "i1" else value

    def scratch_state(self) -> tuple[dict[str, int], bool]:
        """What the scratch bookkeeping is now (before code that may be discarded)."""
        return {key: entry.count for key, entry in self._scratch.items()}, self.scratch_used

    def restore_scratch(self, state: tuple[dict[str, int], bool]) -> None:
        """Forget the scratch uses of discarded code, so they size nothing."""
        counts, self.scratch_used = state
        for key, entry in self._scratch.items():
            entry.count = counts.get(key, 0)

    def finish_scratch(self) -> None:
        """Give every scratch placeholder its shared array, sized to its largest use."""
        for key, entry in self._scratch.items():
            if not list(entry.placeholder.result.uses):
                entry.placeholder.erase()  # only discarded code used it
                continue
            with ir.InsertionPoint(entry.placeholder), entry.placeholder.location:
                array_type = ir.Type.parse(f"!simt.shared<{key}, {max(entry.count, 1)}>")
                array = simt.SharedArrayOp.build(align=16, results=[array_type])
                ptr = simt.SharedPtrOp.build(array, results=[entry.placeholder.result.type])
            entry.placeholder.result.replace_all_uses_with(ptr)
            entry.placeholder.erase()
