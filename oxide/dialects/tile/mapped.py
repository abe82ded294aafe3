"""tile mapped partitions: cutile-rs's `MappedPartitionMut<E, S, MAP>` and its persistent loop
`for idx in z.iter_indices() { .. z.store(tile, idx) }`.

The output's tile grid (G_d = ceil(extent_d / S_d) tiles per axis) is cut into *work items* of MAP_d tiles
per axis (MAP_d = 0, cutile's OWNED, is the whole axis: G_d), clipped at the grid's edge. Work items are
numbered row-major over the item grid (I_d = ceil(G_d / MAP_d) items per axis); tile block b of B (a 1-D
launch of B blocks) takes items b, b + B, b + 2B, ... and visits each item's tiles row-major. Every tile of
the grid belongs to exactly one item and every item to exactly one block, so blocks write disjoint tiles.

    %w  = tile.mapped_work %z                 : number of work items (prod I_d)
    %n  = tile.mapped_item_tiles %z, %item    : tiles of that (clipped) item
    %i  = tile.mapped_index %z, %item, %t {axis = d} : tile index along d of the item's t-th tile
    tile.mapped_store %z, %tile, %i, %j       : store at a tile index minted by tile.mapped_index

The frontend emits `scf.for %item = block_id.x to %w step num_blocks.x` around `scf.for %t = 0 to %n`;
`tile.mapped_store` takes only indices minted by `tile.mapped_index` on the same mapped partition (its
verifier checks that), which is what keeps the blocks' writes disjoint.
"""

from __future__ import annotations

from typing import Any

from oxide.dialects.tile.dialect import DIALECT
from oxide.dialects.tile.kernel import I32
from oxide.dialects.tile.types import MAX_OUTPUT_RANK, MappedMutType, check_static, check_tile, elem_of, shape_of
from oxide.ir.constraints import INTEGER_ATTR, BaseOf
from oxide.ir.declare import Attr, Op, Operand, Result, VarOperand, VerifyError, int_value, read_int_array
from oxide.ir.rules import is_op

MAPPED = BaseOf(MappedMutType)
TILE = BaseOf("!builtin.tensor")


def map_of(mapped_type: Any) -> list[int]:
    """The MAP parameter (tiles per work item per axis, 0 = the whole axis) of a mapped partition type."""
    return read_int_array(lambda: MappedMutType.parameters_of(mapped_type)[2], f"the map of {mapped_type}")


def check_mapped(mapped_type: Any) -> tuple[list[int], list[int]]:
    """(tile shape, map) of a mapped partition type, checked: rank 1 to 3, power-of-two tiles, one map entry
    per axis, none negative, at least one axis streamed (not 0)."""
    tile, mapping = shape_of(mapped_type), map_of(mapped_type)
    if not 1 <= len(tile) <= MAX_OUTPUT_RANK:
        raise VerifyError(f"a mapped partition has rank 1 to {MAX_OUTPUT_RANK}, got tile shape {tile}")
    check_static(tile, "mapped partition tile shape")
    if len(mapping) != len(tile):
        raise VerifyError(f"the map {mapping} needs one entry per axis of the tile shape {tile}")
    if any(m < 0 for m in mapping):
        raise VerifyError(f"map entries are tile counts (0 = the whole axis), got {mapping}")
    if not any(mapping):
        raise VerifyError(f"the map {mapping} streams no axis: at least one entry must be a tile count above 0")
    return tile, mapping


@DIALECT.op
class MappedWorkOp(Op):
    """The number of work items of a mapped partition (the item grid's size)."""

    mnemonic = "mapped_work"
    mapped = Operand(MAPPED)
    result = Result(I32)

    def verify_(self) -> None:
        check_mapped(self.mapped.type)


@DIALECT.op
class MappedItemTilesOp(Op):
    """How many tiles work item `item` holds (MAP tiles, fewer at the grid's edge)."""

    mnemonic = "mapped_item_tiles"
    mapped = Operand(MAPPED)
    item = Operand(I32, "work item number")
    result = Result(I32)

    def verify_(self) -> None:
        check_mapped(self.mapped.type)


@DIALECT.op
class MappedIndexOp(Op):
    """The tile index along `axis` of the `tile`-th tile (row-major) of work item `item`."""

    mnemonic = "mapped_index"
    mapped = Operand(MAPPED)
    item = Operand(I32, "work item number")
    tile = Operand(I32, "tile number inside the item")
    axis = Attr(INTEGER_ATTR, "dimension")
    result = Result(I32)

    def verify_(self) -> None:
        tile, _ = check_mapped(self.mapped.type)
        if not 0 <= self.axis < len(tile):
            raise VerifyError(f"axis {self.axis} is out of range for a rank-{len(tile)} mapped partition")


@DIALECT.op
class MappedStoreOp(Op):
    """`z.store(tile, idx)` in `for idx in z.iter_indices()`: write a tile at a tile index of this block's own
    work items; index d must be `tile.mapped_index {axis = d}` of the same mapped partition. Elements past
    the tensor's edge are dropped."""

    mnemonic = "mapped_store"
    mapped = Operand(MAPPED)
    tile = Operand(TILE)
    indices = VarOperand(I32, "tile index, one per dimension, minted by tile.mapped_index")

    def verify_(self) -> None:
        shape, _ = check_mapped(self.mapped.type)
        got = check_tile(self.tile.type, "the stored tile")
        if got != shape:
            raise VerifyError(f"the stored tile has shape {got}, but the tile shape here is {shape}")
        if str(elem_of(self.tile.type)) != str(elem_of(self.mapped.type)):
            raise VerifyError(f"the stored tile: element types differ ({elem_of(self.tile.type)} and "
                              f"{elem_of(self.mapped.type)})")
        if len(self.indices) != len(shape):
            raise VerifyError(f"a rank-{len(shape)} mapped partition takes {len(shape)} tile indices, "
                              f"got {len(self.indices)}")
        for d, index in enumerate(self.indices):
            owner = index.owner
            if not is_op(owner, MappedIndexOp) or owner.operands[0] != self.mapped \
                    or int_value(owner.attributes["axis"]) != d:
                raise VerifyError(f"tile index {d} is not minted by {MappedIndexOp.OPERATION_NAME} {{axis = {d}}} "
                                  f"of this mapped partition: a block stores only at the indices of its own work "
                                  f"items")
