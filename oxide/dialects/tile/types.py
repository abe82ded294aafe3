"""tile types: global tensor views, a block's own output sub-tensor, partitions, raw pointers; shape helpers.

Tile *values* are builtin ranked tensors with a static shape (`tensor<128x64xf32>`): immutable, statically
shaped, as cutile-rs's `Tile<E, S>`. That lets upstream `arith` and `math` ops, which are elementwise on
tensors, be the tile dialect's elementwise arithmetic, math, compare, select and conversions (as Triton's IR
does); the tile dialect declares only what upstream cannot say. A shape parameter is `array<i64: ...>`,
with -1 for a dimension known only at run time.
"""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.dialects.tile.dialect import DIALECT
from oxide.ir.constraints import AnyType, BaseOf
from oxide.ir.declare import Param, TypeDef, VerifyError, read_int_array

SHAPE = BaseOf("#builtin.dense_array")
MAX_TILE_RANK = 4
MAX_VIEW_RANK = 4
MAX_OUTPUT_RANK = 3  # an output's partition grid is the launch grid, which has three axes


@DIALECT.type
class ViewType(TypeDef):
    """`&Tensor<E, S>`: a read-only view of a global tensor (pointer, shape, strides); S may hold -1."""

    mnemonic = "view"
    elem = Param(AnyType(), "element type")
    shape = Param(SHAPE, "shape, -1 for a dynamic dimension")


@DIALECT.type
class ViewMutType(TypeDef):
    """`&mut Tensor<E, S>`: this tile block's own sub-tensor of an output partition (tile shape S), at
    block id x tile shape; stores past the tensor's edge are masked off."""

    mnemonic = "view_mut"
    elem = Param(AnyType(), "element type")
    shape = Param(SHAPE, "the partition's tile shape (static)")


@DIALECT.type
class PartitionType(TypeDef):
    """`view.partition(S)`: a read-only grid of S-shaped tiles over a view; loads outside the tensor read zero."""

    mnemonic = "partition"
    elem = Param(AnyType(), "element type")
    shape = Param(SHAPE, "tile shape (static)")


@DIALECT.type
class PartitionMutType(TypeDef):
    """`out.partition_mut(S)`: a grid of S-shaped tiles over this block's own sub-tensor; a store at an index
    outside that grid traps, so writes stay inside the block's exclusive region."""

    mnemonic = "partition_mut"
    elem = Param(AnyType(), "element type")
    shape = Param(SHAPE, "tile shape (static)")


@DIALECT.type
class MappedMutType(TypeDef):
    """`MappedPartitionMut<E, S, MAP>`: an output split into S-shaped tiles whose tile grid is cut into work
    items of MAP tiles (0 = the whole axis); a persistent block visits its own work items (tile.mapped_*)."""

    mnemonic = "mapped_mut"
    elem = Param(AnyType(), "element type")
    shape = Param(SHAPE, "the partition's tile shape (static)")
    map = Param(SHAPE, "tiles per work item along each axis, 0 for the whole axis")


@DIALECT.type
class PtrType(TypeDef):
    """`*mut E` in an `unsafe fn` tile kernel: a raw global pointer for pointer-tile atomics."""

    mnemonic = "ptr"
    elem = Param(AnyType(), "element type")


def shape_of(value_type: Any) -> list[int]:
    """The shape of a tile (ranked tensor) type or of a view/partition type's shape parameter."""
    if isinstance(value_type, ir.RankedTensorType):
        return list(value_type.shape)
    for typedef in (ViewType, ViewMutType, PartitionType, PartitionMutType, MappedMutType):
        if typedef.isinstance(value_type):
            return read_int_array(lambda: typedef.parameters_of(value_type)[1], f"the shape of {value_type}")
    raise VerifyError(f"{value_type} has no shape")


def elem_of(value_type: Any) -> ir.Type:
    """The element type of a tile, view, partition or pointer type."""
    if isinstance(value_type, ir.RankedTensorType):
        return value_type.element_type
    for typedef in (ViewType, ViewMutType, PartitionType, PartitionMutType, MappedMutType, PtrType):
        if typedef.isinstance(value_type):
            return typedef.parameters_of(value_type)[0]
    raise VerifyError(f"{value_type} has no element type")


def shape_attr(shape: list[int]) -> ir.Attribute:
    """`array<i64: ...>` for a shape."""
    return ir.DenseI64ArrayAttr.get([int(d) for d in shape])


def tile_type(shape: list[int], elem: ir.Type) -> ir.RankedTensorType:
    """The tile value type `tensor<SxE>`."""
    return ir.RankedTensorType.get([int(d) for d in shape], elem)


def check_tile(value_type: Any, what: str) -> list[int]:
    """The shape of a tile type, checked: a static ranked tensor of rank <= 4 whose dims are powers of two
    (the layouts the lowering assigns split tiles evenly over threads)."""
    if not isinstance(value_type, ir.RankedTensorType):
        raise VerifyError(f"{what} must be a tile (a ranked tensor), got {value_type}")
    shape = list(value_type.shape)
    if len(shape) > MAX_TILE_RANK:
        raise VerifyError(f"{what} has rank {len(shape)}; tiles have rank 0 to {MAX_TILE_RANK}")
    for dim in shape:
        if dim <= 0 or dim & (dim - 1):
            raise VerifyError(f"{what} has shape {shape}: every tile dimension must be a power of two")
    return shape


def check_static(shape: list[int], what: str) -> None:
    """A tile shape parameter: static, positive powers of two."""
    for dim in shape:
        if dim <= 0 or dim & (dim - 1):
            raise VerifyError(f"{what} {shape}: every tile dimension must be a power of two")
