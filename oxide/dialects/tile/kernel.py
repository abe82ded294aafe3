"""Tile block ids and counts, tensor extents, and the kernel attribute `tile.warps`.

    tile.warps = 4 : i32      #[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 4)))]

A tile kernel is a `gpu.func ... kernel` whose parameters are tile views, partitions, raw pointers and
scalars; `tile.warps` says how many warps the lowering spreads each tile over (default 4).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mlir import ir
from mlir.dialects import gpu

from oxide.dialects.tile.dialect import DIALECT
from oxide.dialects.tile.types import PartitionMutType, PartitionType, ViewMutType, ViewType, shape_of
from oxide.ir.constraints import INTEGER_ATTR, AnyOf, BaseOf, Is, one_of
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError, int_value

I32 = Is("i32")
DEFAULT_WARPS = 4


def tile_kernels(module: Any) -> Iterator[ir.Operation]:
    """The tile kernels of `module`: each gpu.func of its gpu.modules that carries `tile.warps`."""
    for op in module.body.operations:
        if not isinstance(op, gpu.GPUModuleOp):
            continue
        for func in op.regions[0].blocks[0].operations:
            if isinstance(func, gpu.GPUFuncOp) and "tile.warps" in func.operation.attributes:
                yield func.operation


@DIALECT.op
class BlockIdOp(Op):
    """`get_tile_block_id().0/.1/.2`: this tile block's index along a grid axis."""

    mnemonic = "block_id"
    axis = Attr(one_of("x", "y", "z"), "grid axis")
    result = Result(I32)


@DIALECT.op
class NumBlocksOp(Op):
    """`get_num_tile_blocks().0/.1/.2`: the number of tile blocks along a grid axis."""

    mnemonic = "num_blocks"
    axis = Attr(one_of("x", "y", "z"), "grid axis")
    result = Result(I32)


@DIALECT.op
class DimOp(Op):
    """`t.shape()[axis]`: a view's extent along `axis` (the full tensor's, for a block's own sub-tensor)."""

    mnemonic = "dim"
    view = Operand(AnyOf(BaseOf(ViewType), BaseOf(ViewMutType)))
    axis = Attr(INTEGER_ATTR, "dimension")
    result = Result(I32)

    def verify_(self) -> None:
        rank = len(shape_of(self.view.type))
        if not 0 <= self.axis < rank:
            raise VerifyError(f"axis {self.axis} is out of range for a rank-{rank} tensor")


@DIALECT.op
class NumTilesOp(Op):
    """`num_tiles(&p, axis)`: how many tiles a partition has along `axis` (ceil(extent / tile))."""

    mnemonic = "num_tiles"
    partition = Operand(AnyOf(BaseOf(PartitionType), BaseOf(PartitionMutType)))
    axis = Attr(INTEGER_ATTR, "dimension")
    result = Result(I32)

    def verify_(self) -> None:
        rank = len(shape_of(self.partition.type))
        if not 0 <= self.axis < rank:
            raise VerifyError(f"axis {self.axis} is out of range for a rank-{rank} partition")


@DIALECT.discardable_attribute("tile.warps")
def verify_warps(op: ir.Operation, attr: ir.Attribute) -> None:
    """`tile.warps` sits on a kernel and is a power of two from 1 to 32."""
    # It stays on the kernel through the lowering, which ends in an llvm.func marked nvvm.kernel.
    if op.name != "gpu.func" and not (op.name == "llvm.func" and "nvvm.kernel" in op.attributes):
        raise VerifyError("tile.warps belongs on a tile kernel (gpu.func)")
    value = int_value(attr) if isinstance(attr.maybe_downcast(), ir.IntegerAttr) else None
    if value is None or value < 1 or value > 32 or value & (value - 1):
        raise VerifyError(f"tile.warps must be a power of two from 1 to 32, got {attr}")
