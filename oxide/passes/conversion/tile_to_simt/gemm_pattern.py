"""The GEMM K loop pattern (docs/tile-hopper.md "The pattern"), as a pure match on the tile IR: an `scf.for`
from 0 step 1 at the kernel's top level whose body is exactly two `tile.load`s of read-only rank-2 view
parameters' partitions at [i, k] and [k, j] (k the induction variable, i and j not), a `tile.mma` of them
into the loop-carried accumulator, and the yield of its result.

The batched form (docs/tile-hopper.md "Batched GEMM", with `batched=True`): the views are rank 3, the loads read
[1, BM, BK] and [1, BK, BN] tiles at [batch, i, k] and [batch, k, j] (each batch index loop-invariant), and each
loaded tile is reshaped to its 2-D tile (the leading 1 dropped) before the mma.

The mapped form (docs/tile-hopper.md "Persistent GEMM on a mapped output"): the K loop is the body of a
`for idx in z.iter_indices()` walk over a `MappedPartitionMut` (tile.mapped: an `scf.for` over the block's work
items at the kernel's top level, around an `scf.for` over the item's tiles whose body holds the K loop), and the
views are the kernel's parameters as before. The walk is the kernel's own persistent loop; `mapped_walk` finds it.

Both Tensor Core paths start from it: the sm_90a TMA + wgmma plan (wgmma_plan.py) and the sm_80 cp.async
pipeline (mma_pipeline.py) add their own conditions on the tile shapes, element types and chip.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, gpu, scf

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
    matched too. `entry` is the block holding the loop: the kernel's entry block, or for the K loop of a mapped
    walk either the walk's tile body or the kernel's entry block (which holds the walk)."""
    if not is_op(loop, scf.ForOp):
        return None
    kernel = kernel_block(loop)
    if entry not in (loop.block, kernel) or (loop.block != kernel and mapped_walk(loop) is None):
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
    a_param, b_param = _param_of(lhs, kernel, rank), _param_of(rhs, kernel, rank)
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


def kernel_block(op: ir.Operation) -> ir.Block:
    """The entry block of the kernel (gpu.func) around `op`."""
    block = op.block
    while not is_op(block.owner, gpu.GPUFuncOp):
        block = block.owner.operation.block
    return block


@dataclass(frozen=True)
class MappedWalk:
    """The `iter_indices()` walk around a GEMM K loop: the loop over the block's work items (in the kernel's entry
    block, from the block id by the block count up to `tile.mapped_work`), the loop over the item's tiles (from 0
    by 1 up to `tile.mapped_item_tiles`), the mapped partition (a kernel parameter), and the `tile.mapped_store`
    after the K loop."""

    items: ir.Operation
    tiles: ir.Operation
    mapped: ir.BlockArgument
    store: ir.Operation

    @property
    def loops(self) -> list[ir.Operation]:
        """The walk's loops, outermost first."""
        return [self.items, self.tiles]


def body_ops(loop: ir.Operation) -> list[ir.Operation]:
    """The ops of a loop's (or a function's) body, without its terminator."""
    return [o.operation for o in loop.regions[0].blocks[0].operations][:-1]


def _is(value: ir.Value, kind: type, operand: ir.Value | None = None, axis: str | None = None) -> bool:
    """Whether `value` is the result of a `kind` op (on `operand` first, with block axis `axis`)."""
    owner = _defining(value)
    if owner is None or not is_op(owner, kind):
        return False
    if operand is not None and owner.operands[0] != operand:
        return False
    return axis is None or ir.StringAttr(owner.attributes["axis"]).value == axis


def mapped_walk(loop: ir.Operation) -> MappedWalk | None:
    """The mapped walk whose tile body holds `loop` as its last op before a final `tile.mapped_store` (possibly
    after a conversion of the loop's result), or None. Nothing else follows the K loop, the tile loop or the item
    loop in their blocks, so every op the walk runs besides the K loop and the store comes before them."""
    tiles = loop.block.owner.operation
    if not is_op(tiles, scf.ForOp) or len(tiles.results) or not is_op(tiles.block.owner, scf.ForOp):
        return None
    items = tiles.block.owner.operation
    if len(items.results) or items.block != kernel_block(items) or body_ops(items.block.owner.operation)[-1] != items:
        return None
    work = _defining(items.operands[1])
    if work is None or not is_op(work, T.MappedWorkOp):
        return None
    mapped = work.operands[0]
    if not isinstance(mapped, ir.BlockArgument) or mapped.owner != items.block:
        return None
    if not (_is(items.operands[0], T.BlockIdOp, axis="x") and _is(items.operands[2], T.NumBlocksOp, axis="x")):
        return None
    count = _defining(tiles.operands[1])
    item = items.regions[0].blocks[0].arguments[0]
    if count is None or not is_op(count, T.MappedItemTilesOp) or list(count.operands) != [mapped, item] \
            or _const(tiles.operands[0]) != 0 or _const(tiles.operands[2]) != 1:
        return None
    inner, outer = body_ops(tiles), body_ops(items)
    if outer[-1] != tiles or loop not in inner:
        return None
    after = inner[inner.index(loop) + 1:]
    if not after or not is_op(after[-1], T.MappedStoreOp) or after[-1].operands[0] != mapped:
        return None
    return MappedWalk(items, tiles, mapped, after[-1])


def mapped_k_loop(op: ir.Operation) -> ir.Operation | None:
    """The K loop inside `op` when `op` is the item loop of a mapped walk around one, else None."""
    if not is_op(op, scf.ForOp) or not op.regions[0].blocks[0].operations:
        return None
    inner = body_ops(op)
    if not inner or not is_op(inner[-1], scf.ForOp):
        return None
    for candidate in body_ops(inner[-1]):
        if is_op(candidate, scf.ForOp) and len(candidate.results) == 1:
            walk = mapped_walk(candidate)
            if walk is not None and walk.items == op:
                return candidate
    return None


def ops_before(loop: ir.Operation, entry: ir.Block) -> list[ir.Operation]:
    """The ops every thread runs before the K loop `loop`: the entry block's before it, or for a mapped walk's K
    loop those of every level of the walk (before the item loop, before the tile loop, before the K loop)."""
    levels = [entry] if loop.block == entry else [entry, *(w.regions[0].blocks[0] for w in mapped_walk(loop).loops)]
    before: list[ir.Operation] = []
    for block, inner in zip(levels, [*levels[1:], None]):
        stop = loop if inner is None else inner.owner.operation
        for op in block.operations:
            if op.operation == stop:
                break
            before.append(op.operation)
    return before


def mapped_stored_output(loop: ir.Operation) -> tuple[int, str] | None:
    """(the mapped parameter, its element type) when all a mapped walk's tile body does after its K loop `loop`
    is store the accumulator, converted or not, at the walk's index: `z.store(acc, idx)` or
    `z.store(convert(acc), idx)`."""
    walk = mapped_walk(loop)
    if walk is None:
        return None
    inner = body_ops(walk.tiles)
    after, value = inner[inner.index(loop) + 1:], loop.results[0]
    if len(after) == 2 and is_op(after[0], arith.TruncFOp) and after[0].operands[0] == value:
        value = after[0].results[0]
    if len(list(value.uses)) != 1 or after[-1].operands[1] != value or len(after) > 2 \
            or len(list(loop.results[0].uses)) != 1:
        return None
    return walk.mapped.arg_number, str(T.elem_of(walk.mapped.type))
