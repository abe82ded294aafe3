"""The software-pipelined flash-attention loop on sm_90a (docs/tile-attention.md, "The pipelined step"): each
consumer warpgroup runs the softmax of a step on the CUDA cores while the previous step's values MMAs run on
its tensor cores.

Step j of the source computes `S_j = Q K_j^T`, the softmax of S_j (P_j, alpha_j), and
`O_j = P_j V_j + alpha_j O_{j-1}`. Pipelined, the values product of step j moves into step j + 1; the loop carries
the output accumulator `A_j = alpha_{j-1} O_{j-2}` (zeros at the start) and P_{j-1}, packed as the values MMAs'
register A (zeros at the start, so the first step adds nothing). With the wgmma groups a warpgroup has in flight
in brackets:

- top of step j: S_j issued into the scores accumulator, then PV_{j-1} (A = the carried P_{j-1}, B = step
  j - 1's `v`, accumulating into A_j) [S_j, PV_{j-1}]; `wgmma.wait_group 1` completes S_j (groups complete in
  order) [PV_{j-1}];
- the softmax of S_j runs while PV_{j-1} still runs on the tensor cores;
- before the first read of the output (the source's rescale `O * alpha_j`): `wait_group 0` completes PV_{j-1}
  [], so the output is O_{j-1}; only now may every warp release step j - 1's stage (its `v` was PV_{j-1}'s B);
- end of step j: the source's values product issues nothing: its result is the rescaled output, carried as
  A_{j+1}, and P_j is packed and carried;
- after the loop: PV_{n-1}, waited for (`O_{n-1} = A_n + P_{n-1} V_{n-1}`).

What each accumulator needs: the scores are written by S_j's MMAs between the top of step j and the first wait,
and read only after it. The output is written by PV_{j-1} from the top of step j to the second wait, which comes
before its first read (the rescale), and is not touched again until the next step's PV. P_{j-1}'s registers are
read by PV_{j-1} until the second wait: P_j is built in other registers. Nothing is in flight across the loop's
back edge (ptxas tracks which group a wait completes only within a step: with a group carried over the back edge
it serializes every wgmma of the kernel, its warning C7514), and every register of a wgmma is defined before its
`wgmma.fence` (else C7515, C7520).

The ring (attention_tma.py) has at least three stages: step j - 1's stage is released in step j (after
PV_{j-1}), and thread 0 refills it at the top of step j + 1 (once every warp has released it, without waiting for
the slowest warp) with step j - 1 + S, whose `k` the top of that step reads.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.ir.rules import is_op
from oxide.passes.conversion.tile_to_simt.attention_pattern import AttentionPlan
from oxide.passes.conversion.tile_to_simt.attention_pingpong import pass_turn, take_turn
from oxide.passes.conversion.tile_to_simt.attention_tma import AttentionRing, AttentionTma, open_ring, refill, release
from oxide.passes.conversion.tile_to_simt.attention_wgmma import issue, packed_a, register_a
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.layouts import TileValue
from oxide.passes.conversion.tile_to_simt.loop_carry import LoopCarry
from oxide.passes.conversion.tile_to_simt.remap import convert_layout, only_if
from oxide.passes.conversion.tile_to_simt.wgmma_gemm import WARP_THREADS, fence_accumulator

# The stage a step refills: the one of two steps before (released by every warp during the previous step).
REFILL_LAG = 2
# 16-bit values per packed register of wgmma's A.
PACKED = 2


@dataclass
class PipelineCarry(LoopCarry):
    """The pipelined loop's carried P (LoopCarry), the loop's spec, and the lowering, the kernel's ring and the
    values product's plan once the body's lowering has opened the ring."""

    spec: Any = None
    ring: AttentionRing | None = None
    ctx: TileLowering | None = None
    plan: AttentionPlan | None = None


def pipeline_carry(spec: AttentionTma, warps: int) -> PipelineCarry:
    """The extra carried values of `spec`'s loop: the previous step's P as packed registers, [BM, BN] 16-bit
    values over the kernel's threads, two per i32."""
    body = spec.loop.regions[0].blocks[0]
    scores = next(op.operation for op in body.operations if is_op(op.operation, T.MmaOp))
    rows, cols = T.shape_of(scores.results[0].type)
    count = rows * cols // (WARP_THREADS * warps * PACKED)
    carry = PipelineCarry(spec.loop, [ir.IntegerType.get_signless(32)] * count, spec=spec)
    carry.enter = lambda flat, layouts: [*flat, *([carry.ctx.i32(0)] * count)]
    carry.close = lambda results, extra: _close(carry, results, extra)
    return carry


def _acc_arg(carry: PipelineCarry) -> ir.Value:
    """The loop body's argument for the carried output accumulator."""
    return carry.loop.regions[0].blocks[0].arguments[carry.spec.acc_index + 1]


def _issue_values(ctx: TileLowering, carry: PipelineCarry, p: list[ir.Value], step: ir.Value,
                  acc: list[ir.Value]) -> list[ir.Value]:
    """PV of step `step` (its `v` waited for), left in flight."""
    ring = carry.ring
    slot, phase = ring.slot(step)
    simt.MbarrierWaitParityOp.build(ring.full(1, slot), phase)
    return issue(ctx, carry.plan, p, ring.in_stage(ring.v, slot), acc, wait=False)


def _pinned(ctx: TileLowering, value: TileValue, plan: AttentionPlan) -> list[ir.Value]:
    """An accumulator's registers in the product's layout, each defined here, before the MMAs' `wgmma.fence`: a
    value (a constant) copied into the accumulator registers after the fence makes ptxas serialize every wgmma
    (C7515)."""
    if value.layout != plan.layout:
        value = convert_layout(ctx, value, plan.layout)
    return fence_accumulator(list(value.values))


def pipelined_scores(ctx: TileLowering, op: Any, plan: AttentionPlan) -> TileValue:
    """The top of step j: S_j and PV_{j-1} issued, S_j waited for; thread 0 refills the stage of step j - 2."""
    carry: PipelineCarry = ctx.loop_carry
    carry.ctx, carry.plan = ctx, replace(plan, scores=False)
    ring = carry.ring = open_ring(ctx, plan, ir.Type.parse(plan.elem))
    slot, phase = ring.slot(ring.step)
    simt.MbarrierWaitParityOp.build(ring.full(0, slot), phase)
    if ring.spec.pingpong:  # the other warpgroup has issued its MMAs (attention_pingpong.py)
        take_turn(ctx)
    scores = issue(ctx, plan, ring.q.result, ring.in_stage(ring.k, slot), _pinned(ctx, ctx.tile(op.acc), plan),
                   wait=False)
    # Step -1's P is zeros: step 0 adds 0 x (its own v) to the zero output.
    previous = arith.maxsi(arith.subi(ring.step, ctx.i32(1)), ctx.i32(0))
    arg = _acc_arg(carry)
    out = _issue_values(ctx, carry, list(carry.inner), previous, _pinned(ctx, ctx.tile(arg), carry.plan))
    ctx.bind(arg, TileValue(carry.plan.layout, out))
    if ring.spec.pingpong:
        pass_turn(ctx, ring.step, ring.steps)
    lag = ctx.i32(REFILL_LAG)
    refill(ring, arith.subi(ring.step, lag), arith.cmpi(arith.CmpIPredicate.sge, ring.step, lag))
    simt.WgmmaWaitGroupOp(pending=1)
    return TileValue(plan.layout, fence_accumulator(scores))


def before_rescale(ctx: TileLowering) -> None:
    """Before the first read of the output accumulator in step j: PV_{j-1} completes, and every warp releases
    step j - 1's stage."""
    carry: PipelineCarry = ctx.loop_carry
    simt.WgmmaWaitGroupOp(pending=0)
    arg = _acc_arg(carry)
    acc = ctx.tile(arg)
    ctx.bind(arg, TileValue(acc.layout, fence_accumulator(list(acc.values))))
    ring = carry.ring
    with only_if(arith.cmpi(arith.CmpIPredicate.sgt, ring.step, ctx.i32(0))):
        release(ring, ring.slot(arith.subi(ring.step, ctx.i32(1)))[0])


def pipelined_values(ctx: TileLowering, op: Any, plan: AttentionPlan) -> TileValue:
    """The end of step j: no MMA; the rescaled output is the product's result (A_{j+1}) and P_j is carried,
    packed (module docstring)."""
    carry: PipelineCarry = ctx.loop_carry
    acc = ctx.tile(op.acc)
    if acc.layout != plan.layout:
        acc = convert_layout(ctx, acc, plan.layout)
    carry.yielded = packed_a(ctx, register_a(ctx, plan, ctx.tile(op.lhs)))
    return acc


def lower_pipelined_mma(ctx: TileLowering, op: Any, plan: AttentionPlan) -> TileValue:
    """One of the pipelined loop's products (module docstring)."""
    return pipelined_scores(ctx, op, plan) if plan.scores else pipelined_values(ctx, op, plan)


def _close(carry: PipelineCarry, results: list[Any], extra: list[ir.Value]) -> list[Any]:
    """After the loop: PV_{n-1}, waited for, completes the output. When the loop ran no step, P is zeros and the
    MMAs read a stage no copy filled: the output divides by a zero row sum either way."""
    ctx, ring = carry.ctx, carry.ring
    acc = _pinned(ctx, results[carry.spec.acc_index], carry.plan)
    last = arith.maxsi(arith.subi(ring.steps, ctx.i32(1)), ctx.i32(0))
    ran = arith.cmpi(arith.CmpIPredicate.sgt, ring.steps, ctx.i32(0))
    slot, phase = ring.slot(last)
    with only_if(ran):
        simt.MbarrierWaitParityOp.build(ring.full(1, slot), phase)
    out = issue(ctx, carry.plan, list(extra), ring.in_stage(ring.v, slot), acc)
    results[carry.spec.acc_index] = TileValue(carry.plan.layout, out)
    return results
