"""The GEMM K loop pattern (docs/tile-hopper.md "The pattern"), as a pure match on the tile IR: an `scf.for`
from 0 step 1 at the kernel's top level whose body is exactly two `tile.load`s of read-only rank-2 view
parameters' partitions at [i, k] and [k, j] (k the induction variable, i and j not), a `tile.mma` of them
into the loop-carried accumulator, and the yield of its result.

The batched form (docs/tile-hopper.md "Batched GEMM", with `batched=True`): the views are rank 3, the loads read
[1, BM, BK] and [1, BK, BN] tiles at [batch, i, k] and [batch, k, j] (each batch index loop-invariant), and each
loaded tile is reshaped to its 2-D tile (the leading 1 dropped) before the mma.

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
    """A matched K loop: its loads of a ([i, k], or [batch, i, k]) and b ([k, j], or [batch, k, j]), its mma,
    and the kernel parameter indices of the two views."""

    loop: ir.Operation
    lhs: ir.Operation
    rhs: ir.Operation
    mma: ir.Operation
    a_param: int
    b_param: int
    batched: bool = False

    @property
    def a_index(self) -> list[ir.Value]:
        """A's tile indices [i, k] (the batch index dropped)."""
        return list(self.lhs.operands)[-2:]

    @property
    def b_index(self) -> list[ir.Value]:
        """B's tile indices [k, j] (the batch index dropped)."""
        return list(self.rhs.operands)[-2:]

    @property
    def batches(self) -> tuple[ir.Value, ir.Value] | None:
        """The batch indices of A's and B's loads (batched form), or None."""
        return (self.lhs.operands[1], self.rhs.operands[1]) if self.batched else None


def _const(value: ir.Value) -> int | None:
    owner = _defining(value)
    if owner is not None and is_op(owner, arith.ConstantOp):
        return int_value(owner.attributes["value"])
    return None


def _defining(value: ir.Value) -> ir.Operation | None:
    owner = value.owner
    return owner.operation if isinstance(owner, ir.OpView | ir.Operation) else None


def _param_of(load: ir.Operation, entry: ir.Block, rank: int) -> int | None:
    """The index of the read-only kernel parameter of `rank` whose partition `load` reads, or None."""
    partition = _defining(load.operands[0])
    if partition is None or not is_op(partition, T.PartitionOp):
        return None
    view = partition.operands[0]
    if not isinstance(view, ir.BlockArgument) or view.owner != entry:
        return None
    if not T.ViewType.isinstance(view.type) or len(T.shape_of(view.type)) != rank:
        return None
    return view.arg_number


def match_gemm_loop(loop: ir.Operation, entry: ir.Block, batched: bool = False) -> GemmLoop | None:
    """`loop` as a GEMM K loop of the pattern (module docstring), or None; with `batched`, the batched form is
    matched too."""
    if not is_op(loop, scf.ForOp) or loop.block != entry:
        return None
    if _const(loop.operands[0]) != 0 or _const(loop.operands[2]) != 1 or len(loop.results) != 1:
        return None
    body = loop.regions[0].blocks[0]
    ops = [o.operation for o in body.operations]
    if len(ops) not in ((4, 6) if batched else (4,)) or not is_op(ops[-2], T.MmaOp) or not is_op(ops[-1], scf.YieldOp):
        return None
    mma, iv, acc = ops[-2], body.arguments[0], body.arguments[1]
    if list(mma.operands)[2] != acc or list(ops[-1].operands) != [mma.results[0]]:
        return None
    operands = [_defining(v) for v in list(mma.operands)[:2]]
    if len(ops) == 6:
        operands = [_unit_reshape_source(o) for o in operands]
    lhs, rhs = operands
    if lhs is None or rhs is None or not all(is_op(o, T.LoadOp) for o in (lhs, rhs)):
        return None
    if {*ops[:-2]} != {lhs, rhs, *(_defining(v) for v in list(mma.operands)[:2])} or lhs == rhs:
        return None
    batched = len(ops) == 6
    (i, k_a), (k_b, j) = list(lhs.operands)[-2:], list(rhs.operands)[-2:]
    batches = [lhs.operands[1], rhs.operands[1]] if batched else []
    if k_a != iv or k_b != iv or i == iv or j == iv or iv in batches:
        return None
    rank = 3 if batched else 2
    a_param, b_param = _param_of(lhs, entry, rank), _param_of(rhs, entry, rank)
    if a_param is None or b_param is None:
        return None
    return GemmLoop(loop, lhs, rhs, mma, a_param, b_param, batched)


def _unit_reshape_source(op: ir.Operation | None) -> ir.Operation | None:
    """The op defining the source of `op` when `op` is a reshape that drops a leading unit dimension of a rank-3
    tile ([1, R, C] -> [R, C]), else None."""
    if op is None or not is_op(op, T.ReshapeOp):
        return None
    source = T.shape_of(op.operands[0].type)
    if len(source) != 3 or source[0] != 1 or list(source[1:]) != list(T.shape_of(op.results[0].type)):
        return None
    return _defining(op.operands[0])
