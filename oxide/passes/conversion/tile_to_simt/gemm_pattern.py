"""The GEMM K loop pattern (docs/tile-hopper.md "The pattern"), as a pure match on the tile IR: an `scf.for`
from 0 step 1 at the kernel's top level whose body is exactly two `tile.load`s of read-only rank-2 view
parameters' partitions at [i, k] and [k, j] (k the induction variable, i and j not), a `tile.mma` of them
into the loop-carried accumulator, and the yield of its result.

Both Tensor Core paths start from it: the sm_90a TMA + wgmma plan (wgmma_plan.py) and the sm_80 cp.async
pipeline (mma_pipeline.py) add their own conditions on the tile shapes, element types and chip.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import tile as T
from oxide.ir.declare import int_value
from oxide.ir.rules import is_op


@dataclass(frozen=True)
class GemmLoop:
    """A matched K loop: its loads of a ([i, k]) and b ([k, j]), its mma, and the kernel parameter indices of
    the two views."""

    loop: ir.Operation
    lhs: ir.Operation
    rhs: ir.Operation
    mma: ir.Operation
    a_param: int
    b_param: int


def _const(value: ir.Value) -> int | None:
    owner = _defining(value)
    if owner is not None and is_op(owner, arith.ConstantOp):
        return int_value(owner.attributes["value"])
    return None


def _defining(value: ir.Value) -> ir.Operation | None:
    owner = value.owner
    return owner.operation if isinstance(owner, ir.OpView | ir.Operation) else None


def _param_of(load: ir.Operation, entry: ir.Block) -> int | None:
    """The index of the read-only rank-2 kernel parameter whose partition `load` reads, or None."""
    partition = _defining(load.operands[0])
    if partition is None or not is_op(partition, T.PartitionOp):
        return None
    view = partition.operands[0]
    if not isinstance(view, ir.BlockArgument) or view.owner != entry:
        return None
    if not T.ViewType.isinstance(view.type) or len(T.shape_of(view.type)) != 2:
        return None
    return view.arg_number


def match_gemm_loop(loop: ir.Operation, entry: ir.Block) -> GemmLoop | None:
    """`loop` as a GEMM K loop of the pattern (module docstring), or None."""
    if not is_op(loop, scf.ForOp) or loop.block != entry:
        return None
    if _const(loop.operands[0]) != 0 or _const(loop.operands[2]) != 1 or len(loop.results) != 1:
        return None
    body = loop.regions[0].blocks[0]
    ops = [o.operation for o in body.operations]
    if len(ops) != 4 or not is_op(ops[2], T.MmaOp) or not is_op(ops[3], scf.YieldOp):
        return None
    mma, iv, acc = ops[2], body.arguments[0], body.arguments[1]
    if list(mma.operands)[2] != acc or list(ops[3].operands) != [mma.results[0]]:
        return None
    lhs, rhs = (_defining(v) for v in list(mma.operands)[:2])
    if not ((lhs == ops[0] and rhs == ops[1]) or (lhs == ops[1] and rhs == ops[0])):
        return None
    if not all(is_op(o, T.LoadOp) for o in (lhs, rhs)):
        return None
    a_index, b_index = list(lhs.operands)[1:], list(rhs.operands)[1:]
    if a_index[1] != iv or b_index[0] != iv or a_index[0] == iv or b_index[1] == iv:
        return None
    a_param, b_param = _param_of(lhs, entry), _param_of(rhs, entry)
    if a_param is None or b_param is None:
        return None
    return GemmLoop(loop, lhs, rhs, mma, a_param, b_param)
