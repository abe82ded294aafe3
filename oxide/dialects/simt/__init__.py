"""The simt dialect: the IR of one GPU thread (the SIMT track, cuda-oxide's device API).

This module must stay importable as `oxide.dialects.simt`: the MLIR bindings import it to find the
OpView classes of `simt.*` ops.
"""

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.ops import (
    BlockDimOp, BlockIdOp, DisjointStoreOp, GridDimOp, Index1DOp, IndexValueOp, LenOp, LoadOp, SharedArrayOp, ThreadIdOp,
)
from oxide.dialects.simt.types import DimAttr, DisjointType, SharedType, SliceMutType, SliceType, ThreadIndexType

__all__ = [
    "DIALECT", "BlockDimOp", "BlockIdOp", "DisjointStoreOp", "GridDimOp", "Index1DOp", "IndexValueOp", "LenOp",
    "LoadOp", "SharedArrayOp", "ThreadIdOp", "DimAttr", "DisjointType", "SharedType", "SliceMutType", "SliceType", "ThreadIndexType",
]
