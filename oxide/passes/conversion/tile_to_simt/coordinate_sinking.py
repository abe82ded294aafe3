"""Coordinate sinking: after lowering, 32-bit integer and predicate arithmetic moves down to its first use.

The lowering emits a tile op's per-thread values together, so an elementwise chain over a tile made from
coordinates (LayerNorm's column mask: iota, `< n`, select) became 32 column indices, then 32 compares, then 32
selects: the 32 indices were live at once beside the 32 centred values, and ptxas did not interleave them
(LayerNorm at [4, 1024]: 80 registers). Moved down, each index and compare sits just before its select: 64
(ptxas -v, sm_90; softmax at [4, 1024] 62 -> 56 and at [1, 4096] 48 -> 40, RMSNorm at [1, 4096] 40 -> 39,
[4, 4096] unchanged). Floating-point and 64-bit (address) ops stay: moving every pure op cost LayerNorm at
[4, 1024] 96 registers, and moving 64-bit ops too cost it 120 at [4, 4096] instead of 116.

Only ops without regions or memory effects (arith) whose results are all integers of at most 32 bits move,
within the kernel's entry block, to just before the first op there that uses them (or contains a use)."""

from __future__ import annotations

from mlir import ir

from oxide.passes.conversion.tile_to_simt.load_sinking import in_block


def sink_coordinates(block: ir.Block) -> None:
    """Move each narrow integer op of `block` down to just before its first user there."""
    for op in reversed([op.operation for op in block.operations]):
        if not _narrow_integer(op):
            continue
        users = [in_block(use.owner.operation, block) for result in op.results for use in result.uses]
        if not users or any(u is None for u in users):
            continue
        first = users[0]
        for user in users[1:]:
            if user.is_before_in_block(first):
                first = user
        op.move_before(first)


def _narrow_integer(op: ir.Operation) -> bool:
    return (not len(op.regions) and op.name.split(".")[0] == "arith" and len(op.results) > 0
            and all(isinstance(r.type, ir.IntegerType) and ir.IntegerType(r.type).width <= 32 for r in op.results))
