"""Ping-pong of the two consumer warpgroups of a warp-specialized, pipelined flash-attention loop on sm_90a
(docs/tile-attention.md, "Ping-pong"; the scheduling FlashAttention-3 describes): the warpgroups take turns
issuing their MMAs, so that the tensor cores run one warpgroup's products while the other runs its softmax.

Each step of a warpgroup's loop issues its scores MMAs and the previous step's values MMAs together
(attention_pipeline.py). Ping-pong brackets that issue with two named barriers of the 256 consumer threads,
one per warpgroup (`TURN_BARRIERS`): warpgroup w waits at its own (`bar.sync`) before issuing and, once its MMAs
are committed, lets the other go (`bar.arrive` on the other's). Warpgroup 1 arrives once on warpgroup 0's before
the loop, so warpgroup 0 issues first. Thereafter the issues alternate 0, 1, 0, 1, ...: in step j warpgroup 1
issues only after warpgroup 0 has issued step j, and warpgroup 0 issues step j + 1 only after warpgroup 1 has
issued step j. The tensor cores complete work in issue order, so warpgroup 0's scores are done first and its
softmax runs while warpgroup 1's MMAs do, and the other way round.

Pairing: both warpgroups run the same number n of steps (one block, one loop bound). Warpgroup 0 waits n times
on its barrier, and gets warpgroup 1's arrival before the loop plus one in each of warpgroup 1's first n - 1
steps (warpgroup 1 does not arrive in its last step: nothing would wait for it); warpgroup 1 waits n times and
gets warpgroup 0's n arrivals. With n = 0 nobody arrives or waits. A warpgroup never waits at its barrier for an
arrival the other gives after waiting for this one, so the order cannot deadlock: warpgroup 0's wait in step j
needs warpgroup 1's arrival of step j - 1 (or the first), which needs only warpgroup 0's arrival of step j - 1.
Each barrier holds at most one round of arrivals: warpgroup 1 arrives again only after its own wait, which needs
warpgroup 0 to have passed the wait those arrivals were for. The producer warpgroup is at neither barrier, and
the mbarrier waits of the step (full_k before the turn, full_v inside it) are for copies the producer issues
without waiting for either warpgroup's turn.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.passes.conversion.tile_to_simt.context import PART_BARRIER, TileLowering
from oxide.passes.conversion.tile_to_simt.remap import only_if
from oxide.passes.conversion.tile_to_simt.wgmma_gemm import WARPGROUP_THREADS

# Warpgroup w's turn barrier is TURN_BARRIERS[w]: after PART_BARRIER (the consumers' own barrier).
TURN_BARRIERS = (PART_BARRIER + 1, PART_BARRIER + 2)
TURN_THREADS = 2 * WARPGROUP_THREADS


def _in_group(ctx: TileLowering, second: bool) -> ir.Value:
    """Whether this thread is in warpgroup 1 (`second`) or 0 (uniform per warp)."""
    predicate = arith.CmpIPredicate.uge if second else arith.CmpIPredicate.ult
    return arith.cmpi(predicate, ctx.tid, ctx.i32(WARPGROUP_THREADS))


def _per_group(ctx: TileLowering, first: Callable[[], None], second: Callable[[], None]) -> None:
    """Emit `first()` in warpgroup 0 and `second()` in warpgroup 1."""
    with only_if(_in_group(ctx, False)):
        first()
    with only_if(_in_group(ctx, True)):
        second()


def _arrive(ident: int) -> None:
    simt.NamedBarrierArriveOp(id=ident, threads=TURN_THREADS)


def first_turn(ctx: TileLowering, steps: ir.Value) -> None:
    """Before the loop: warpgroup 1 lets warpgroup 0 issue first, if the loop runs."""
    ran = arith.cmpi(arith.CmpIPredicate.sgt, steps, ctx.i32(0))
    with only_if(arith.andi(_in_group(ctx, True), ran)):
        _arrive(TURN_BARRIERS[0])


def take_turn(ctx: TileLowering) -> None:
    """Before a step's MMAs are issued: wait until the other warpgroup has issued its own."""
    _per_group(ctx, lambda: simt.NamedBarrierOp(id=TURN_BARRIERS[0], threads=TURN_THREADS),
               lambda: simt.NamedBarrierOp(id=TURN_BARRIERS[1], threads=TURN_THREADS))


def pass_turn(ctx: TileLowering, step: ir.Value, steps: ir.Value) -> None:
    """After a step's MMAs are committed: the other warpgroup may issue (warpgroup 1 not after the last step)."""
    more = arith.cmpi(arith.CmpIPredicate.ne, arith.addi(step, ctx.i32(1)), steps)

    def second() -> None:
        with only_if(more):
            _arrive(TURN_BARRIERS[0])

    _per_group(ctx, lambda: _arrive(TURN_BARRIERS[1]), second)
