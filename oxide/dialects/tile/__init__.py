"""The tile dialect: the IR of one tile block (the Tile track, cutile-rs's kernel API).

Tile values are builtin ranked tensors; upstream `arith`/`math` ops on them are the elementwise part of
the dialect. Tiles have static power-of-two dimensions and rank 0 to 4 (`tensor<128x64xf32>`): immutable and
statically shaped, so upstream `arith` and `math` ops on them are the elementwise arithmetic, bitwise ops, math,
compare, select and conversions, and `arith.constant dense<..>` the constants. Kernels are `gpu.func ... kernel`
ops carrying `tile.warps` (warps per tile block). Ops print in generic form.

One module per op family; importing this package declares them all. It must stay importable
as `oxide.dialects.tile`: the MLIR bindings import it to find the OpView classes of `tile.*` ops.
"""

from oxide.dialects.tile import debug, kernel, mapped, memory, mma, pointer, reduce, shape, types  # noqa: F401  (declaration on import)
from oxide.dialects.tile.debug import PrintOp
from oxide.dialects.tile.dialect import DIALECT
from oxide.dialects.tile.kernel import BlockIdOp, DimOp, NumBlocksOp, NumTilesOp
from oxide.dialects.tile.mapped import MappedIndexOp, MappedItemTilesOp, MappedStoreOp, MappedWorkOp
from oxide.dialects.tile.memory import (
    ATOMIC_KINDS, AtomicRmwOp, LoadOp, LoadOwnOp, PartitionMutOp, PartitionOp, StoreOp, StoreOwnOp,
)
from oxide.dialects.tile.mma import TF32_ATTR, MmaOp, multiplies_as_tf32
from oxide.dialects.tile.pointer import LoadPtrOp, StorePtrOp
from oxide.dialects.tile.reduce import REDUCE_KINDS, ReduceOp, ScanOp
from oxide.dialects.tile.shape import (
    BroadcastOp, CatOp, ExtractOp, IotaOp, PermuteOp, ReshapeOp, SplatOp, ToScalarOp,
)
from oxide.dialects.tile.types import (
    MappedMutType, PartitionMutType, PartitionType, PtrType, ViewMutType, ViewType, elem_of, shape_attr, shape_of, tile_type,
)

__all__ = ["DIALECT", "ATOMIC_KINDS", "REDUCE_KINDS", "TF32_ATTR", "AtomicRmwOp", "BlockIdOp", "BroadcastOp", "CatOp",
           "DimOp", "ExtractOp", "IotaOp", "LoadOp", "LoadOwnOp", "LoadPtrOp", "MappedIndexOp", "MappedItemTilesOp",
           "MappedMutType", "MappedStoreOp", "MappedWorkOp", "MmaOp", "NumBlocksOp", "NumTilesOp",
           "PartitionMutOp", "PartitionOp", "PermuteOp", "PrintOp", "ReduceOp", "ReshapeOp", "ScanOp", "SplatOp",
           "StoreOp", "StoreOwnOp", "StorePtrOp", "ToScalarOp", "PartitionMutType", "PartitionType", "PtrType",
           "ViewMutType", "ViewType", "elem_of", "multiplies_as_tf32", "shape_attr", "shape_of", "tile_type"]
