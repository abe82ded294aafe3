"""The warp-specialized flash-attention kernel on sm_90a (docs/tile-attention.md, "The producer warpgroup"): the
block is the kernel's warps (the consumers, for which every tile op is lowered) plus one producer warpgroup,
and the ring of attention_tma.py is filled by one producer thread instead of by consumer thread 0.

- Every warp runs the ops before the loop (attention_tma.specializable: they write nothing), then thread 0
  initialises the ring's barriers and the whole block meets at `bar.sync 0`, the last block-wide barrier.
- The block splits once on the warpgroup. The producer warpgroup lowers its registers (setmaxnreg.dec) and
  its first thread copies q, then for each step j fills stage j % S with step j's k and v, first waiting, from
  step S on, for `empty[j % S]` to complete the phase in which the consumers released step j - S.
- The consumer warpgroups raise their registers (setmaxnreg.inc), wait for q and run the loop and everything
  after it. They wait only on `full_k`/`full_v` and arrive on `empty`; their own barriers (the softmax's and the
  epilogue's scratch) are named barriers of the consumers' threads, since the producer is not at them.

The producer never waits for a consumer that waits for it in turn: a consumer's waits are on copies of steps
up to its own, which the producer issues once steps up to S before them are released, and a consumer releases a
step without waiting for anything the producer does later. The last steps' stages are never released (nothing
needs them), and a block whose loop runs no step only splits and ends.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.passes.conversion.tile_to_simt.attention_pattern import AttentionPlan
from oxide.passes.conversion.tile_to_simt.attention_pingpong import first_turn
from oxide.passes.conversion.tile_to_simt.attention_tma import PRODUCER_THREADS, AttentionRing, init_barriers
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.remap import only_if
from oxide.passes.conversion.tile_to_simt.wgmma_gemm import WARP_THREADS

EmitOp = Callable[[TileLowering, ir.Operation], None]
# setmaxnreg's budget: the producer keeps what address arithmetic and the copies need; the consumers take the
# rest of the register file, in multiples of 8, at most what one thread may hold.
PRODUCER_REGISTERS = 24
REGISTER_FILE = 65536
MAX_REGISTERS = 240


def block_threads(warps: int) -> int:
    """The block's threads with `warps` consumer warps."""
    return WARP_THREADS * warps + PRODUCER_THREADS


def consumer_registers(warps: int) -> int:
    """The registers per consumer thread once the producer warpgroup has given its own up."""
    return min(MAX_REGISTERS, (REGISTER_FILE - PRODUCER_THREADS * PRODUCER_REGISTERS) // (WARP_THREADS * warps)
               // 8 * 8)


def emit_specialized_attention(ctx: TileLowering, entry: ir.Block, emit_op: EmitOp) -> None:
    """Emit the body of tile kernel block `entry`, whose attention loop (ctx.attention) is warp-specialized
    (module docstring)."""
    spec = ctx.attention
    ops = [o.operation for o in entry.operations]
    at = ops.index(spec.loop)
    for op in ops[:at]:
        emit_op(ctx, op)
    plan: AttentionPlan = spec.plan
    ring = AttentionRing(ctx, plan, spec, ir.Type.parse(plan.elem), ctx.attention_maps, None,
                         ctx.scalar(spec.loop.operands[1]))
    init_barriers(ring)
    consumers = WARP_THREADS * ctx.warps
    branch = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ult, ctx.tid, ctx.i32(consumers)), [], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        simt.SetMaxNRegOp(regs=consumer_registers(ctx.warps), action="inc")
        simt.MbarrierWaitParityOp.build(ring.q_barrier, ctx.i32(0))
        if spec.pingpong:  # warpgroup 0 issues its MMAs first (attention_pingpong.py)
            first_turn(ctx, ring.steps)
        ctx.barrier_threads, outer = consumers, ctx.barrier_threads
        try:
            for op in ops[at:-1]:
                emit_op(ctx, op)
        finally:
            ctx.barrier_threads = outer
        scf.YieldOp([])
    with ir.InsertionPoint(branch.else_block):
        simt.SetMaxNRegOp(regs=PRODUCER_REGISTERS, action="dec")
        with only_if(arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(consumers))):
            _produce(ring)
        scf.YieldOp([])
    emit_op(ctx, ops[-1])


def _produce(ring: AttentionRing) -> None:
    """The producer thread: q, then every step's k and v into its stage once the step S before it is released
    (its phase of `empty` completed: the (j / S - 1)-th, parity (j / S) & 1 flipped)."""
    ctx, stages = ring.ctx, ring.spec.stages
    ring.copy(ring.spec.q, ring.q_map, ring.q.result, ring.q_barrier, None)
    loop = scf.ForOp(ctx.i32(0), ring.steps, ctx.i32(1))
    with ir.InsertionPoint(loop.body):
        step = loop.induction_variable
        stage, phase = ring.slot(step)
        with only_if(arith.cmpi(arith.CmpIPredicate.sge, step, ctx.i32(stages))):
            simt.MbarrierWaitParityOp.build(ring.empty(stage), arith.xori(phase, ctx.i32(1)))
        ring.fill(step, stage)
        scf.YieldOp([])
