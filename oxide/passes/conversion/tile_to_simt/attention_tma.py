"""The operands of a flash-attention loop on sm_90a by TMA (docs/tile-attention.md, "K and V by TMA"): which
loads qualify, the tensor maps the kernel then takes, and the lowering of the two products with q, k and v
arriving by TMA instead of through every thread's registers.

A load qualifies when it is `reshape(load(partition(view)))` of a kernel parameter (the scores' `k` also
transposed), its tile `[1, .., 1, rows, D]` (rank 2 to 5), its indices defined before the loop except the
row-block index of `k` and `v`, which is the loop's counter (the loop runs from 0 by 1). Each such tensor gets a
tensor map of its own rank whose box is one 64-column swizzle row of `rows` rows, so TMA writes the
128-byte-swizzled layout the wgmma descriptors already read (attention_wgmma.py) and fills rows past the
tensor's edge (a partial last key block, a partial query block) with zeros per (batch, head): the scores' -inf
mask handles the keys, the output's masked store the queries.

The ring: S stages (up to `MAX_STAGES`, or `PIPELINED_STAGES` for the software-pipelined loop of
attention_pipeline.py, which the plan picks where its registers fit and at least three stages do; as many as
fit beside q and the softmax's scratch), each a `k` and a `v` buffer, with mbarriers `full_k[s]` and
`full_v[s]` (one arrival: the copying thread's expect_tx, the copies complete it) and `empty[s]` (one arrival
per consumer warp, after the step's values MMAs are complete). Step j uses stage j % S in phase (j / S) & 1. A
producer warpgroup issues every copy where the kernel allows it (attention_producer.py); otherwise consumer
thread 0 does: it fills the first S steps before the loop and, in the plain loop's step j after the scores MMAs
(the pipelined one: attention_pipeline.py), waits for `empty[(j - 1) % S]` and fills step j - 1 + S into it, so
that warpgroup 0 does not wait for the other at the end of every step. With one stage (S = 1) the refill stays
at the end of step j (the next step's copies need this step's stage). `q` lands once, before the loop, on its own barrier. `p` is the values
MMAs' A in registers (attention_wgmma.py), so a step has no block barrier of its own: only the mbarrier waits
and the warpgroup's wgmma fence and waits (the softmax's layout conversions may add their own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, gpu, scf

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.ir.rules import is_op
from oxide.passes.conversion.tile_to_simt.attention_pattern import SWIZZLE_ELEMS, AttentionPlan, match_attention
from oxide.passes.conversion.tile_to_simt.attention_wgmma import ELEM_BYTES, STAGED_MARK, buffer, issue, register_a
from oxide.passes.conversion.tile_to_simt.context import TileLowering, ptr_offset
from oxide.passes.conversion.tile_to_simt.layouts import TileValue
from oxide.passes.conversion.tile_to_simt.remap import convert_layout, only_if
from oxide.passes.conversion.tile_to_simt.wgmma_gemm import WARP_THREADS
from oxide.passes.conversion.tile_to_simt.wgmma_plan import MapSpec
from oxide.target import Target

MAX_STAGES = 2
# A software-pipelined loop (attention_pipeline.py) releases a stage a step after its last use and refills it a
# step later, so it needs three stages at least (with two, every refill would be waited for at once).
PIPELINED_STAGES = 4
MIN_PIPELINED_STAGES = 3
# The registers per thread a pipelined loop's MMAs hold: the scores (BN / 2 f32 per 64-row block), the previous
# step's P (BN / 4, packed) and the output (D / 2). Every instance up to this fits without spills (BN = D = 128:
# 160, 239 registers in all; docs/tile-attention.md, the register table); past it the loop stays unpipelined.
PIPELINE_REGISTERS = 160
MAX_MAP_RANK = 5
# The producer warpgroup of a specialized loop (attention_producer.py): one thread issues the copies, but
# setmaxnreg acts per warpgroup, so all four warps join the block and give their registers up.
PRODUCER_THREADS = 128
MAX_BLOCK_THREADS = 1024
# Ping-pong alternates two consumer warpgroups (attention_pingpong.py).
PINGPONG_GROUPS = 2


@dataclass(frozen=True)
class TmaOperand:
    """One of q, k, v read by TMA: its tile parameter, its load (a tile.load), the partition's tile shape, and
    the ops of its chain to the mma (load first), which the lowering skips."""

    param: int
    load: Any
    tile: tuple[int, ...]
    chain: tuple[Any, ...]

    @property
    def rows(self) -> int:
        return self.tile[-2]

    def map(self, elem: str) -> MapSpec:
        return MapSpec(self.param, (*([1] * (len(self.tile) - 2)), self.rows, SWIZZLE_ELEMS), elem)


@dataclass(frozen=True)
class AttentionTma:
    """A kernel's attention loop whose q, k and v arrive by TMA."""

    loop: Any
    q: TmaOperand
    k: TmaOperand
    v: TmaOperand
    elem: str
    stages: int
    # Software-pipelined (attention_pipeline.py): the op that first reads the carried output accumulator in the
    # loop's body (its rescale) and the accumulator's position among the loop's carried values; else None.
    rescale: Any = None
    acc_index: int = -1
    # Warp-specialized (attention_producer.py): a producer warpgroup beside the kernel's warps issues every
    # copy; the consumers only wait on `full` and release `empty`. Else thread 0 refills the ring in the loop.
    specialized: bool = False
    plan: AttentionPlan | None = None
    # The two consumer warpgroups of a specialized, pipelined loop take turns issuing their MMAs
    # (attention_pingpong.py).
    pingpong: bool = False

    @property
    def pipelined(self) -> bool:
        return self.rescale is not None

    def rescales(self, op: ir.Operation) -> bool:
        """Whether `op` is the pipelined loop's first read of the output accumulator."""
        return self.rescale is not None and op == self.rescale

    @property
    def maps(self) -> list[MapSpec]:
        """The kernel's tensor-map parameters, in order: q, k, v (after the contract's parameters)."""
        return [x.map(self.elem) for x in (self.q, self.k, self.v)]

    def skips(self, op: ir.Operation) -> bool:
        """Whether `op` is one of the loads (or their reshapes) that TMA replaces."""
        return any(op == c for x in (self.q, self.k, self.v) for c in x.chain)


def _constant(value: ir.Value) -> int | None:
    if isinstance(value, ir.BlockArgument) or not is_op(value.owner.operation, arith.ConstantOp):
        return None
    attr = value.owner.operation.attributes["value"]
    return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else None


def _single_use(value: ir.Value) -> bool:
    return len(list(value.uses)) == 1


def _operand(value: ir.Value, entry: ir.Block, body: ir.Block, transposed: bool) -> TmaOperand | None:
    """The TMA operand `value` (an mma operand) comes from, or None (module docstring)."""
    chain = []
    if transposed:
        if isinstance(value, ir.BlockArgument) or not is_op(value.owner.operation, T.PermuteOp) \
                or not _single_use(value):
            return None
        chain.append(value.owner.operation)
        value = value.owner.operation.operands[0]
    if isinstance(value, ir.BlockArgument) or not is_op(value.owner.operation, T.ReshapeOp) or not _single_use(value):
        return None
    chain.append(value.owner.operation)
    loaded = value.owner.operation.operands[0]
    if isinstance(loaded, ir.BlockArgument) or not is_op(loaded.owner.operation, T.LoadOp) or not _single_use(loaded):
        return None
    load = loaded.owner.operation
    chain.append(load)
    part = load.operands[0]
    if isinstance(part, ir.BlockArgument) or not is_op(part.owner.operation, T.PartitionOp):
        return None
    view = part.owner.operation.operands[0]
    tile = tuple(T.shape_of(part.type))
    if not isinstance(view, ir.BlockArgument) or view.owner != entry or not T.ViewType.isinstance(view.type) \
            or not 2 <= len(tile) <= MAX_MAP_RANK or any(t != 1 for t in tile[:-2]):
        return None
    return TmaOperand(view.arg_number, load, tile, tuple(reversed(chain)))


def _defined_before(value: ir.Value, body: ir.Block) -> bool:
    owner = value.owner if isinstance(value, ir.BlockArgument) else value.owner.operation.block
    return owner != body


def _indices_fit(x: TmaOperand, body: ir.Block, counter: ir.Value | None) -> bool:
    """Whether the load's indices are loop-invariant (defined before the loop, or constants), except (with
    `counter`) the row-block index, which is the loop's counter."""
    indices = list(x.load.operands[1:])
    for i, index in enumerate(indices):
        if counter is not None and i == len(indices) - 2:
            if index != counter:
                return False
        elif _constant(index) is None and not _defined_before(index, body):
            return False
    return True


def match_attention_tma(func: ir.Operation, target: Target, warps: int, max_stages: int | None = None,
                        specialize: str = "auto", pingpong: bool = True) -> AttentionTma | None:
    """The kernel's attention loop with q, k and v by TMA (module docstring), or None: the loop then stages its
    operands through registers (attention_wgmma.py). Pure: changes nothing. The ring gets as many stages (up to
    `max_stages`, else MAX_STAGES) as fit beside q; the lowering retries with fewer when the softmax's
    scratch does not fit beside them (driver.py). With `specialize` "on" a producer warpgroup fills the ring
    where the kernel allows it (`specializable`), with "auto" where it also pays (`_specialization_pays`); with
    `pingpong` too, a pipelined loop's two consumer warpgroups
    take turns issuing their MMAs."""
    entry = func.regions[0].blocks[0]
    for op in entry.operations:
        loop = op.operation
        if not is_op(loop, scf.ForOp) or not is_op(func, gpu.GPUFuncOp):
            continue
        body = loop.regions[0].blocks[0]
        mmas = [o.operation for o in body.operations if is_op(o.operation, T.MmaOp)]
        plan = match_attention(mmas[0].opview, target, warps) if len(mmas) == 2 else None
        if plan is None:
            continue
        if _constant(loop.operands[0]) != 0 or _constant(loop.operands[2]) != 1:
            return None
        counter = body.arguments[0]
        q = _operand(mmas[0].operands[0], entry, body, transposed=False)
        k = _operand(mmas[0].operands[1], entry, body, transposed=True)
        v = _operand(mmas[1].operands[1], entry, body, transposed=False)
        if q is None or k is None or v is None or q.load.block != entry:
            return None
        if not (_indices_fit(q, body, None) and _indices_fit(k, body, counter) and _indices_fit(v, body, counter)):
            return None
        rescale = _rescale(loop, mmas) if pipeline_fits(plan) else None
        fixed = plan.bm * plan.d * ELEM_BYTES
        stages = min(max_stages or (PIPELINED_STAGES if rescale else MAX_STAGES),
                     (target.shared_memory_per_block - fixed) // (2 * plan.bn * plan.d * ELEM_BYTES))
        if stages < 1:
            return None
        pipelined = rescale is not None and stages >= MIN_PIPELINED_STAGES
        split = specialize != "off" and specializable(loop, entry, warps) and \
            (specialize == "on" or _specialization_pays(plan))
        turns = pingpong and split and pipelined and plan.warpgroups == PINGPONG_GROUPS
        return AttentionTma(loop, q, k, v, plan.elem, stages, *(rescale if pipelined else (None, -1)), split, plan,
                            turns)
    return None


def _specialization_pays(plan: AttentionPlan) -> bool:
    """Whether a producer warpgroup beats thread 0's refills. Its setmaxnreg budget (240 registers for each
    consumer) makes the block the SM's only one, so where two unspecialized blocks share an SM, their overlap
    is worth more: when the two accumulators (BN / 2 + D / 2 registers per thread) leave a 256-thread block
    within 128 registers a thread (BN + D <= 128; the ring of such a block, at most 80 KiB, fits twice). Decided
    from the plan alone, so that the artifact's block size and every lowering attempt agree. Measured on an
    H200 (bf16): D = 64, BN = 64 ran at 266 TFLOP/s unspecialized against 211 specialized (causal: 189 against
    148); D = 128 (BN 64 or 128) and D = 64 with BN = 128 ran 1-9% faster specialized."""
    return plan.bn + plan.d > 128


def specializable(loop: ir.Operation, entry: ir.Block, warps: int) -> bool:
    """Whether a producer warpgroup can join the kernel: the block stays within 1024 threads, and the ops
    before the loop, which every warp runs before the roles split (attention_producer.py), write no memory and
    hold no regions (the producer's threads would run them in a layout made for the consumers)."""
    if WARP_THREADS * warps + PRODUCER_THREADS > MAX_BLOCK_THREADS:
        return False
    ops = [op.operation for op in entry.operations]
    return all(not len(op.regions) and not is_op(op, T.StoreOp, T.StoreOwnOp, T.AtomicRmwOp)
               and op.name.split(".")[0] in (T.DIALECT.name, "arith", "math") for op in ops[:ops.index(loop)])


def pipeline_fits(plan: AttentionPlan) -> bool:
    """Whether the scores, the carried P and the output of a warpgroup's rows fit the register budget."""
    return plan.blocks_per_group * (plan.bn // 2 + plan.bn // 4 + plan.d // 2) <= PIPELINE_REGISTERS


def _rescale(loop: ir.Operation, mmas: list[ir.Operation]) -> tuple[ir.Operation, int] | None:
    """The first op of the body that reads the carried output accumulator, and the accumulator's position, when
    the loop can be software-pipelined: the values product's result is only yielded (its MMAs run in the next
    step)."""
    body = loop.regions[0].blocks[0]
    yielded = list(body.operations[len(body.operations) - 1].operands)
    result = mmas[1].results[0]
    if not _single_use(result) or result not in yielded:
        return None
    index = yielded.index(result)
    carried = body.arguments[index + 1]
    # The output is read only by ops of the body itself, the first after the scores product (which issues the
    # previous step's values MMAs into it): the wait before that read then covers every read.
    if any(use.owner.operation.block != body for use in carried.uses):
        return None
    ops = [op.operation for op in body.operations]
    first = next((op for op in ops if any(operand == carried for operand in op.operands)), None)
    if first is None or ops.index(first) < ops.index(mmas[0]):
        return None
    return first, index


def _index(ctx: TileLowering, old: ir.Value) -> ir.Value:
    """A load index's lowered value, a constant made afresh at the kernel's entry."""
    constant = _constant(old)
    return ctx.scalar(old) if constant is None else ctx.i32(constant)


class AttentionRing:
    """The lowered ring of one kernel (module docstring): buffers and barriers at the kernel's entry."""

    def __init__(self, ctx: TileLowering, plan: AttentionPlan, spec: AttentionTma, elem: ir.Type,
                 maps: list[ir.Value], step: ir.Value | None, steps: ir.Value):
        self.ctx, self.plan, self.spec = ctx, plan, spec
        self.q_map, self.k_map, self.v_map = maps
        self.q = buffer(ctx, "q", elem, plan.bm * plan.d)
        self.k = buffer(ctx, "k", elem, spec.stages * plan.bn * plan.d).result
        self.v = buffer(ctx, "v", elem, spec.stages * plan.bn * plan.d).result
        self.barriers = buffer(ctx, "barriers", ir.IntegerType.get_signless(64), 3 * spec.stages + 1).result
        # The lowered loop's counter (None outside the loop: the producer's own loop) and its trip count.
        self.step, self.steps = step, steps

    def barrier(self, index: Any) -> ir.Value:
        offset = index if isinstance(index, ir.Value) else self.ctx.i32(index)
        return ptr_offset(self.barriers, self.ctx.index(offset))

    def full(self, which: int, stage: ir.Value) -> ir.Value:
        """full_k (which 0) or full_v (which 1) of `stage`."""
        return self.barrier(arith.addi(stage, self.ctx.i32(which * self.spec.stages)))

    def empty(self, stage: ir.Value) -> ir.Value:
        return self.barrier(arith.addi(stage, self.ctx.i32(2 * self.spec.stages)))

    @property
    def q_barrier(self) -> ir.Value:
        return self.barrier(3 * self.spec.stages)

    def slot(self, step: ir.Value) -> tuple[ir.Value, ir.Value]:
        stages = self.ctx.i32(self.spec.stages)
        return arith.remui(step, stages), arith.andi(arith.divui(step, stages), self.ctx.i32(1))

    def in_stage(self, base: ir.Value, stage: ir.Value) -> ir.Value:
        start = arith.muli(stage, self.ctx.i32(self.plan.bn * self.plan.d))
        return ptr_offset(base, self.ctx.index(start))

    def copy(self, x: TmaOperand, tensor_map: ir.Value, dst: ir.Value, bar: ir.Value, step: ir.Value | None) -> None:
        """expect_tx of the tile's bytes on `bar` and its D / 64 box copies into `dst` (row-block index `step`
        for k and v)."""
        ctx = self.ctx
        simt.MbarrierArriveExpectTxOp.build(bar, ctx.i32(x.rows * self.plan.d * ELEM_BYTES), None)
        # A constant index may be defined in the loop's body; the prologue's copies are before it.
        indices = [_index(ctx, i) for i in x.load.operands[1:]]
        if step is not None:
            indices[-2] = step
        scaled = [i if t == 1 else arith.muli(i, ctx.i32(t)) for i, t in zip(indices, x.tile)]
        for box in range(self.plan.d // SWIZZLE_ELEMS):
            col = scaled[-1] if box == 0 else arith.addi(scaled[-1], ctx.i32(box * SWIZZLE_ELEMS))
            coords = [col, *reversed(scaled[:-1])]
            at = ptr_offset(dst, ctx.const(ir.IndexType.get(), box * x.rows * SWIZZLE_ELEMS)) if box else dst
            simt.TmaLoadOp(at, tensor_map, coords, bar, None)

    def fill(self, step: ir.Value, stage: ir.Value) -> None:
        """Thread 0: copy step `step`'s k and v into `stage`."""
        self.copy(self.spec.k, self.k_map, self.in_stage(self.k, stage), self.full(0, stage), step)
        self.copy(self.spec.v, self.v_map, self.in_stage(self.v, stage), self.full(1, stage), step)


def open_ring(ctx: TileLowering, plan: AttentionPlan, elem: ir.Type) -> AttentionRing:
    """The ring seen from the loop's body (its counter bound); the first time, thread 0's prologue before the
    loop, unless a producer warpgroup fills the ring (attention_producer.py emits the barriers' set-up)."""
    old_iv = ctx.attention.loop.regions[0].blocks[0].arguments[0]
    step = ctx.scalar(old_iv)
    loop = ir.BlockArgument(step).owner.owner
    ring = AttentionRing(ctx, plan, ctx.attention, elem, ctx.attention_maps, step, loop.operands[1])
    if STAGED_MARK not in ring.q.attributes:
        with ir.InsertionPoint(loop):
            init_barriers(ring)
            first = arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(0))
            with only_if(first):
                ring.copy(ring.spec.q, ring.q_map, ring.q.result, ring.q_barrier, None)
                for s in range(ring.spec.stages):
                    with only_if(arith.cmpi(arith.CmpIPredicate.slt, ctx.i32(s), ring.steps)):
                        ring.fill(ctx.i32(s), ctx.i32(s))
            simt.MbarrierWaitParityOp.build(ring.q_barrier, ctx.i32(0))
    return ring


def init_barriers(ring: AttentionRing) -> None:
    """Thread 0 initialises the ring's barriers and q's, and every thread of the block waits for it: `empty`
    counts one arrival per consumer warp (the kernel's warps). Marks the ring as set up."""
    ctx, spec = ring.ctx, ring.spec
    with only_if(arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(0))):
        for s in range(spec.stages):
            simt.MbarrierInitOp.build(ring.full(0, ctx.i32(s)), ctx.i32(1))
            simt.MbarrierInitOp.build(ring.full(1, ctx.i32(s)), ctx.i32(1))
            simt.MbarrierInitOp.build(ring.empty(ctx.i32(s)), ctx.i32(ctx.warps))
        simt.MbarrierInitOp.build(ring.q_barrier, ctx.i32(1))
        simt.FenceProxyAsyncOp.build(space="shared_cta")  # the async proxy completes what plain stores set up
    ctx.barrier()
    ring.q.attributes[STAGED_MARK] = ir.UnitAttr.get()


def release(ring: AttentionRing, stage: ir.Value) -> None:
    """After this step's values MMAs: every warp releases the step's stage."""
    ctx = ring.ctx
    with only_if(arith.cmpi(arith.CmpIPredicate.eq, arith.remui(ctx.tid, ctx.i32(WARP_THREADS)), ctx.i32(0))):
        simt.MbarrierArriveOp.build(ring.empty(stage), None)


def refill(ring: AttentionRing, step: ir.Value, valid: ir.Value | None = None) -> None:
    """Thread 0 waits until every warp has released step `step`'s stage and fills the step S on into it, if
    there is one (and `valid`). Nothing where a producer warpgroup fills the ring."""
    ctx = ring.ctx
    if ring.spec.specialized:
        return
    stage, phase = ring.slot(step)
    later = arith.addi(step, ctx.i32(ring.spec.stages))
    when = arith.andi(arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(0)),
                      arith.cmpi(arith.CmpIPredicate.slt, later, ring.steps))
    with only_if(when if valid is None else arith.andi(when, valid)):
        simt.MbarrierWaitParityOp.build(ring.empty(stage), phase)
        ring.fill(later, stage)


def lower_tma_attention_mma(ctx: TileLowering, op: Any, plan: AttentionPlan) -> TileValue:
    """One of the attention loop's products on wgmma with q, k and v from the TMA ring (module docstring)."""
    acc = ctx.tile(op.acc)
    if acc.layout != plan.layout:
        acc = convert_layout(ctx, acc, plan.layout)
    elem = ir.Type.parse(plan.elem)
    ring = open_ring(ctx, plan, elem)
    slot, phase = ring.slot(ring.step)
    deferred = ring.spec.stages > 1
    if plan.scores:
        simt.MbarrierWaitParityOp.build(ring.full(0, slot), phase)
        out = issue(ctx, plan, ring.q.result, ring.in_stage(ring.k, slot), list(acc.values))
        if deferred:  # the previous step's stage, which the other warpgroups have most likely released by now
            previous = arith.subi(ring.step, ctx.i32(1))
            refill(ring, previous, arith.cmpi(arith.CmpIPredicate.sgt, ring.step, ctx.i32(0)))
        return TileValue(plan.layout, out)
    p = register_a(ctx, plan, ctx.tile(op.lhs))
    simt.MbarrierWaitParityOp.build(ring.full(1, slot), phase)
    out = issue(ctx, plan, p, ring.in_stage(ring.v, slot), list(acc.values))
    release(ring, slot)
    if not deferred:  # one stage: the next step's copies can only start once this step is done with it
        refill(ring, ring.step)
    return TileValue(plan.layout, out)
