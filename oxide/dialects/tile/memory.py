"""tile memory ops: partitions of views, tile loads and stores through them, a block's own sub-tensor,
pointer-tile atomics.

Bounds: a load reads zero where the tile reaches past the tensor's edge; a store writes only the elements
inside the tensor. A store through `partition_mut` at an index outside the block's own sub-grid traps,
unless the compiler proves it inside (then the check is gone).
"""

from __future__ import annotations

from oxide.dialects.tile.dialect import DIALECT
from oxide.dialects.tile.kernel import I32
from oxide.dialects.tile.types import (
    MAX_OUTPUT_RANK, PartitionMutType, PartitionType, PtrType, ViewMutType, ViewType, check_static, check_tile,
    elem_of, shape_of,
)
from oxide.ir.constraints import BaseOf, one_of
from oxide.ir.declare import Attr, Op, Operand, Result, VarOperand, VerifyError

TILE = BaseOf("!builtin.tensor")


def _same_elem(a: object, b: object, what: str) -> None:
    if str(elem_of(a)) != str(elem_of(b)):
        raise VerifyError(f"{what}: element types differ ({elem_of(a)} and {elem_of(b)})")


def _tile_matches(tile_type: object, holder_type: object, what: str) -> None:
    shape = check_tile(tile_type, what)
    if shape != shape_of(holder_type):
        raise VerifyError(f"{what} has shape {shape}, but the tile shape here is {shape_of(holder_type)}")
    _same_elem(tile_type, holder_type, what)


@DIALECT.op
class PartitionOp(Op):
    """`x.partition(const_shape![..])`: view a read-only tensor as a grid of tiles of the result's shape."""

    mnemonic = "make_partition"
    view = Operand(BaseOf(ViewType))
    result = Result(BaseOf(PartitionType))

    def verify_(self) -> None:
        _same_elem(self.view.type, self.result.type, "partition")
        tile, view = shape_of(self.result.type), shape_of(self.view.type)
        check_static(tile, "partition tile shape")
        if len(tile) != len(view):
            raise VerifyError(f"a rank-{len(view)} tensor needs a rank-{len(view)} tile shape, got {tile}")


@DIALECT.op
class PartitionMutOp(Op):
    """`out.partition_mut(const_shape![..])`: view this block's own sub-tensor as a grid of smaller tiles."""

    mnemonic = "make_partition_mut"
    view = Operand(BaseOf(ViewMutType))
    result = Result(BaseOf(PartitionMutType))

    def verify_(self) -> None:
        _same_elem(self.view.type, self.result.type, "partition_mut")
        tile, own = shape_of(self.result.type), shape_of(self.view.type)
        check_static(tile, "partition_mut tile shape")
        if len(tile) != len(own) or any(o % t for o, t in zip(own, tile)):
            raise VerifyError(f"tile shape {tile} must have the rank of the block's tile {own} and divide it")


@DIALECT.op
class LoadOp(Op):
    """`p.load([i, j])`: the tile at tile index (i, j) of a partition; elements past the tensor read 0."""

    mnemonic = "load"
    partition = Operand(BaseOf(PartitionType))
    indices = VarOperand(I32, "tile index, one per dimension")
    result = Result(TILE)

    def verify_(self) -> None:
        _tile_matches(self.result.type, self.partition.type, "the loaded tile")
        rank = len(shape_of(self.partition.type))
        if len(self.indices) != rank:
            raise VerifyError(f"a rank-{rank} partition takes {rank} tile indices, got {len(self.indices)}")


@DIALECT.op
class StoreOp(Op):
    """`p.store(tile, [i, j])` on a `partition_mut`: write a tile at a tile index of the block's own
    sub-grid; an index outside that sub-grid traps (a write into another block's tile is never done)."""

    mnemonic = "store"
    partition = Operand(BaseOf(PartitionMutType))
    tile = Operand(TILE)
    indices = VarOperand(I32, "tile index, one per dimension")

    def verify_(self) -> None:
        _tile_matches(self.tile.type, self.partition.type, "the stored tile")
        rank = len(shape_of(self.partition.type))
        if len(self.indices) != rank:
            raise VerifyError(f"a rank-{rank} partition takes {rank} tile indices, got {len(self.indices)}")


@DIALECT.op
class LoadOwnOp(Op):
    """`y.load()` / `load_tile_mut(y)`: read this block's own output tile (elements past the tensor read 0)."""

    mnemonic = "load_own"
    view = Operand(BaseOf(ViewMutType))
    result = Result(TILE)

    def verify_(self) -> None:
        _tile_matches(self.result.type, self.view.type, "the loaded tile")


@DIALECT.op
class StoreOwnOp(Op):
    """`y.store(tile)`: write this block's own output tile; elements past the tensor's edge are dropped."""

    mnemonic = "store_own"
    view = Operand(BaseOf(ViewMutType))
    tile = Operand(TILE)

    def verify_(self) -> None:
        _tile_matches(self.tile.type, self.view.type, "the stored tile")
        if len(shape_of(self.view.type)) > MAX_OUTPUT_RANK:
            raise VerifyError(f"an output has rank at most {MAX_OUTPUT_RANK} (the launch grid has three axes)")


ATOMIC_KINDS = ("add", "and", "or", "xor", "max", "min", "umax", "umin", "xchg")


@DIALECT.op
class AtomicRmwOp(Op):
    """`atomic_rmw_tko(ptrs, vals, atomic::Add, ..)` in an `unsafe fn` kernel: for every element where `mask`
    holds, atomically combine `values` into `ptr[offsets]`; the result holds the old values (0 where masked)."""

    mnemonic = "atomic_rmw"
    ptr = Operand(BaseOf(PtrType))
    offsets = Operand(TILE, "element offsets from ptr (i32 or i64 tile)")
    values = Operand(TILE)
    mask = Operand(TILE, "i1 tile: which elements take part")
    kind = Attr(one_of(*ATOMIC_KINDS), "the combining operation")
    result = Result(TILE)

    def verify_(self) -> None:
        shape = check_tile(self.values.type, "the atomic values")
        for value, what in ((self.offsets, "offsets"), (self.mask, "mask"), (self.result, "result")):
            if check_tile(value.type, what) != shape:
                raise VerifyError(f"the atomic {what} tile has shape {check_tile(value.type, what)}, values {shape}")
        if str(elem_of(self.values.type)) != str(elem_of(self.ptr.type)):
            raise VerifyError(f"values of type {elem_of(self.values.type)} into a *mut {elem_of(self.ptr.type)}")
        if str(elem_of(self.offsets.type)) not in ("i32", "i64"):
            raise VerifyError("atomic offsets must be an i32 or i64 tile")
        if str(elem_of(self.mask.type)) != "i1":
            raise VerifyError("the atomic mask must be an i1 tile")
        if str(self.result.type) != str(self.values.type):
            raise VerifyError("the result has the values' type")

