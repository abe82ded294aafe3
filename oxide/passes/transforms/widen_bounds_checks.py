"""oxide-widen-bounds-checks: one bounds check for a run of slice reads.

Every slice index is checked, and a failed check traps. Reads in a row, like a stencil's five neighbours,
are then each a compare and a branch to a trap, and no read can be issued above a branch before it: ptxas
issues them one by one, between the branches, where the unchecked code issues them together
(benchmarks/RESULTS.md, stencil). Between two such reads of one block the code below only allows pure
arithmetic, other reads and local variables, none of which is observable once the kernel has trapped. So a
read that would trap may as well trap at the first read of its run: no write to memory, atomic, barrier,
call or output happened in between. The pass checks every read of a run before the first one, with one
branch to a trap, and makes the reads unchecked:

    x = s[i]; y = s[j]; z = t[k]      =>      if !(i < s.len() && j < s.len() && k < t.len()) { trap }
                                              x = s[i] unchecked; y = s[j] unchecked; z = t[k] unchecked

A read joins the run when its index can be computed at the run's first read: from values defined before it,
through pure integer ops (recomputed there). Anything else ends the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.analysis.kernel_walk import lowered_from_tile
from oxide.analysis.nested import nested_ops
from oxide.dialects import simt
from oxide.passes.base import OxidePass
from oxide.passes.registry import register_pass
from oxide.passes.transforms.recompute import computable, recompute

# Ops a run of reads may contain besides its reads: they write no memory, synchronise nothing and produce
# nothing a trapped kernel leaves behind (locals die with it).
_QUIET_PREFIXES = ("arith.", "math.")
_QUIET = frozenset({"simt.len", "simt.load_unchecked", "memref.load", "memref.alloca", "simt.thread_id",
                    "simt.block_id", "simt.block_dim", "simt.grid_dim"})


def _quiet(op: Any) -> bool:
    name = op.operation.name
    if name == "memref.store":  # a local variable (memref is only the frontend's locals; checked anyway)
        owner = op.operands[1].owner
        return not isinstance(owner, ir.Block) and owner.operation.name == "memref.alloca"
    return name in _QUIET or name.startswith(_QUIET_PREFIXES) and not op.regions


def _runs(block: ir.Block) -> list[list[Any]]:
    """The runs of checked reads in `block` that have two reads or more."""
    ops = list(block.operations)
    position = {op.operation: i for i, op in enumerate(ops)}
    runs: list[list[Any]] = []
    run: list[Any] = []

    def before_run(value: ir.Value) -> bool:
        owner = value.owner
        if isinstance(owner, ir.Block):
            return True  # a block argument dominates the whole block
        # An op of this block dominates the run when it comes before it; any other op a use here can see is
        # in an enclosing block, so it dominates the run as well.
        index = position.get(owner.operation)
        return index is None or index < position[run[0].operation]

    for op in ops:
        if op.operation.name == "simt.load":
            if run and computable(op.operands[1], before_run):
                run.append(op)
                continue
            runs.append(run)
            run = [op]
        elif not _quiet(op):
            runs.append(run)
            run = []
    runs.append(run)
    return [r for r in runs if len(r) >= 2]


def _widen(run: list[Any]) -> None:
    first = run[0]
    position = {op.operation: i for i, op in enumerate(first.operation.block.operations)}

    def before_first(value: ir.Value) -> bool:
        owner = value.owner
        return isinstance(owner, ir.Block) or position.get(owner.operation, -1) < position[first.operation]

    with ir.InsertionPoint(first), first.location:
        ok = None
        for read in run:
            index = recompute(read.operands[1], before_first)
            in_bounds = arith.cmpi(arith.CmpIPredicate.ult, index, simt.LenOp.build(read.operands[0]))
            ok = in_bounds if ok is None else arith.andi(ok, in_bounds)
        failed = arith.xori(ok, arith.constant(ir.IntegerType.get_signless(1), 1))
        branch = scf.IfOp(failed)
        with ir.InsertionPoint(branch.then_block):
            simt.TrapOp.build()
            scf.YieldOp([])
    for read in run:
        with ir.InsertionPoint(read), read.location:
            unchecked = simt.LoadUncheckedOp.build(read.operands[0], read.operands[1], results=[read.results[0].type])
        read.results[0].replace_all_uses_with(unchecked)
        read.erase()


def _blocks(op: Any) -> list[ir.Block]:
    """Every block nested in `op`."""
    return [block for region in op.regions for block in region.blocks
            for block in [block, *(inner for nested in block.operations for inner in _blocks(nested))]]


@register_pass
@dataclass(frozen=True)
class WidenBoundsChecks(OxidePass):
    """Check a run of slice reads once, before its first read, and make the reads unchecked."""

    name = "oxide-widen-bounds-checks"

    def run(self, module: ir.Operation) -> None:
        functions = [op for op in nested_ops(module) if op.operation.name in ("gpu.func", "func.func")]
        for function in functions:
            if lowered_from_tile(function):
                continue  # a lowered tile kernel reads through raw pointers under its own masks
            for block in _blocks(function):
                for run in _runs(block):
                    _widen(run)
