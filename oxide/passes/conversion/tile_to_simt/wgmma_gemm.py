"""Lowering a matched GEMM K loop on sm_90a (wgmma_plan.py): TMA box copies into 128-byte-swizzled shared
memory through a ring of stages guarded by mbarriers, and wgmma with the accumulator in registers.

The ring is the launch's dynamic shared memory (`tile.dynamic_shared` bytes, which the runtime passes). Per
stage: the A box (BM x 64, K-major, as wgmma reads A) and BN / 64 B boxes (64 x 64, N innermost: wgmma reads
them MN-major through the transpose bit). `full[s]` (one arrival: thread 0's expect_tx of the stage's bytes,
which the copies complete) says a stage has landed; `empty[s]` (one arrival per warp, per block that writes
into the stage in a cluster: wgmma_cluster.py) says every warp's MMAs on it are complete, so it may be refilled.
Each K step keeps its MMAs in flight (`wgmma_wait 1`) and releases the previous step's stage, whose MMAs that
wait covered. TMA fills reads past the tensors' edges
with zeros, so edge tiles need no masking here; the store of the accumulator is masked as any store.

Who fills the stages: in a specialized kernel a producer thread outside the consumer warpgroups
(`producer_loop`, gemm_kernel.py arranges the warpgroups); otherwise thread 0 between its own MMAs
(`inline_loop`).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.gemm_pattern import match_gemm_loop
from oxide.passes.conversion.tile_to_simt.layouts import TileValue
from oxide.passes.conversion.tile_to_simt.remap import convert_layout, only_if
from oxide.passes.conversion.tile_to_simt.wgmma_cluster import ClusterPlace
from oxide.passes.conversion.tile_to_simt.wgmma_plan import (
    BK,
    SWIZZLE_ATOM_BYTES,
    SWIZZLE_ROW_BYTES,
    WGMMA_K,
    WGMMA_M,
    GemmPlan,
    TileOrigin,
)

WARPGROUP_THREADS = 128
WARP_THREADS = 32


class Ring:
    """The stage buffers and mbarriers of one pipeline, and the copies that fill a stage. Steps are counted
    across the kernel (a persistent kernel's tiles continue the count), so step g uses stage g % S in phase
    (g / S) & 1."""

    def __init__(self, ctx: TileLowering, plan: GemmPlan, maps: tuple[ir.Value, ir.Value]):
        self.ctx, self.plan, self.maps = ctx, plan, maps
        self.buffers = simt.DynamicSharedOp.build(ctx.index(ctx.i32(0)), align=SWIZZLE_ATOM_BYTES,
                                                  results=[ir.Type.parse(f"!simt.ptr<{plan.storage}, 3>")])
        barriers = simt.SharedArrayOp.build(align=8, results=[ir.Type.parse(f"!simt.shared<i64, {2 * plan.stages}>")])
        self.barriers = simt.SharedPtrOp.build(barriers, results=[ir.Type.parse("!simt.ptr<i64, 3>")])
        # A persistent kernel's cluster (wgmma_cluster.py): peers fill this block's stages and release its own.
        self.cluster = ClusterPlace(ctx, plan) if plan.cluster_blocks > 1 else None

    def full(self, stage: ir.Value) -> ir.Value:
        """The mbarrier that says stage `stage` has landed."""
        return simt.PtrOffsetOp.build(self.barriers, self.ctx.index(stage))

    def empty(self, stage: ir.Value) -> ir.Value:
        """The mbarrier that says every consumer warp is done reading stage `stage`."""
        return simt.PtrOffsetOp.build(self.barriers, self.ctx.index(arith.addi(stage, self.ctx.i32(self.plan.stages))))

    def slot(self, step: ir.Value) -> tuple[ir.Value, ir.Value]:
        """The stage and the phase parity of pipeline step `step`."""
        stages = self.ctx.i32(self.plan.stages)
        return arith.remui(step, stages), arith.andi(arith.divui(step, stages), self.ctx.i32(1))

    def stage(self, stage: ir.Value, elements: int = 0) -> ir.Value:
        """A pointer `elements` into stage `stage`."""
        start = arith.muli(stage, self.ctx.i32(self.plan.stage_elems))
        if elements:
            start = arith.addi(start, self.ctx.i32(elements))
        return simt.PtrOffsetOp.build(self.buffers, self.ctx.index(start))

    def init(self) -> None:
        """Thread 0 initialises the barriers; every thread then waits for it (a block barrier, or in a cluster a
        cluster barrier: the peers' copies and arrives must find them initialised)."""
        ctx, plan = self.ctx, self.plan
        releases = plan.warps * (self.cluster.writers if self.cluster else 1)
        with only_if(arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(0))):
            for s in range(plan.stages):
                simt.MbarrierInitOp.build(self.full(ctx.i32(s)), ctx.i32(1))
                simt.MbarrierInitOp.build(self.empty(ctx.i32(s)), ctx.i32(releases))
            # The barriers are written by ordinary stores; the TMA unit (the async proxy) completes them.
            simt.FenceProxyAsyncOp.build(space="shared_cta")
            if self.cluster:
                simt.FenceMbarrierInitOp.build()
        if self.cluster:
            self.cluster.sync()
        else:
            ctx.barrier()

    def fill(self, k_tile: ir.Value, stage: ir.Value, origin: TileOrigin) -> None:
        """Expect the stage's bytes on full[stage] and copy K tile `k_tile` of the A rows and B columns that
        start at `origin` into it (one thread): A in BK / row boxes of [BM, row]; B in BN / 64 N-major boxes
        of [64 K, 64 N], or (K-major) in BK / row boxes of [BN, row] of the [N, K] memory."""
        ctx, plan = self.ctx, self.plan
        full = self.full(stage)
        simt.MbarrierArriveExpectTxOp.build(full, ctx.i32(plan.stage_bytes), None)
        k0 = arith.muli(k_tile, ctx.i32(plan.bk))
        if self.cluster:
            self.cluster.fill(self.maps, full, lambda elements: self.stage(stage, elements), k0, origin)
            return
        for box in range(plan.bk // plan.row):
            k = _plus(ctx, k0, box * plan.row)
            simt.TmaLoadOp(self.stage(stage, box * plan.bm * plan.row), self.maps[0], origin.a(k, origin.row), full,
                           None)
            if plan.b_kmajor:
                b_box = self.stage(stage, plan.a_elems + box * plan.bn * plan.row)
                simt.TmaLoadOp(b_box, self.maps[1], origin.b(k, origin.col), full, None)
        if not plan.b_kmajor:
            for box in range(plan.bn // BK):
                b_box = self.stage(stage, plan.a_elems + box * BK * BK)
                simt.TmaLoadOp(b_box, self.maps[1], origin.b(_plus(ctx, origin.col, box * BK), k0), full, None)


def _plus(ctx: TileLowering, value: ir.Value, offset: int) -> ir.Value:
    return value if offset == 0 else arith.addi(value, ctx.i32(offset))


# A descriptor's start address field is the shared address / 16 in its low 14 bits, and every shared address of a
# block is below 256 KiB, so the field never carries into the bits above it: the descriptor of base + d bytes is
# the descriptor of base plus d / 16. Each MMA's descriptors are then one constant add to a per-stage descriptor,
# not the address arithmetic, shift and mask of a fresh one (docs/tile-hopper.md: what it did to fp8).


def descriptor_plus(desc: ir.Value, offset: int) -> ir.Value:
    """The descriptor of the matrix `offset` bytes (a multiple of 16) past the one `desc` describes."""
    assert offset % 16 == 0, offset
    if offset == 0:
        return desc
    return arith.addi(desc, arith.constant(ir.IntegerType.get_signless(64), offset // 16))


def _plus_bytes(ring: Ring, desc: ir.Value, elements: int) -> ir.Value:
    """The descriptor `elements` past the one `desc` describes (a multiple of 16 bytes)."""
    return descriptor_plus(desc, elements * ring.plan.elem_bytes)


class _StageDescriptors:
    """The descriptors of one stage's A rows `a_rows` and of its B, from which every K step's are offsets."""

    def __init__(self, ring: Ring, stage: ir.Value, a_rows: ir.Value):
        plan, ctx = ring.plan, ring.ctx
        self.ring = ring
        a_start = simt.PtrOffsetOp.build(ring.stage(stage), ctx.index(arith.muli(a_rows, ctx.i32(plan.row))))
        self.a = simt.SmemDescOp.build(a_start, leading_byte_offset=16, stride_byte_offset=SWIZZLE_ATOM_BYTES,
                                       swizzle="128B", base_offset=0)
        b_start = ring.stage(stage, plan.a_elems)
        if plan.b_kmajor:
            self.b = simt.SmemDescOp.build(b_start, leading_byte_offset=16, stride_byte_offset=SWIZZLE_ATOM_BYTES,
                                           swizzle="128B", base_offset=0)
        else:
            self.b = simt.SmemDescOp.build(b_start, leading_byte_offset=BK * SWIZZLE_ROW_BYTES,
                                           stride_byte_offset=SWIZZLE_ATOM_BYTES, swizzle="128B", base_offset=0)

    def step(self, kk: int, col: int = 0) -> tuple[ir.Value, ir.Value]:
        """The wgmma descriptors of K step `kk`. A (K-major: 8-row atoms 1024 bytes apart, in the box of the
        step's swizzle row, a K step 32 bytes along it); B K-major the same way (its rows are N, from column
        `col`), or MN-major (the next 64 columns one box (8 KiB) on, the next 8 K rows 1024 bytes on, a K step 16
        rows; the whole width only)."""
        plan = self.ring.plan
        box, within = divmod(kk * plan.wgmma_k, plan.row)
        a = _plus_bytes(self.ring, self.a, box * plan.bm * plan.row + within)
        if plan.b_kmajor:
            return a, _plus_bytes(self.ring, self.b, (box * plan.bn + col) * plan.row + within)
        return a, _plus_bytes(self.ring, self.b, kk * WGMMA_K * BK)


def _mma_step(ring: Ring, stage: ir.Value, group_rows: ir.Value, regs: list[ir.Value],
              overwrite: bool = False, col: int = 0) -> list[ir.Value]:
    """This warpgroup's MMAs on one stage: per 64-row block, BK / k steps of m64nNk (k = 32 bytes of the
    element type), B transposed when it is N-major. `regs` hold N / 2 registers per block: the columns `col` ..
    `col` + N (N is BN unless a promoted loop issues one column chunk at a time). With `overwrite` the first MMA
    of each block ignores the registers' values (the step's sum starts from zero)."""
    plan = ring.plan
    per_block = len(regs) // plan.blocks_per_group
    out = list(regs)
    for block in range(plan.blocks_per_group):
        rows = arith.addi(group_rows, ring.ctx.i32(block * WGMMA_M))
        acc = out[block * per_block:(block + 1) * per_block]
        descriptors = _StageDescriptors(ring, stage, rows)
        for kk in range(plan.bk // plan.wgmma_k):
            desc_a, desc_b = descriptors.step(kk, col)
            op = simt.WgmmaMmaAsyncOp(
                acc, desc_a, desc_b, results=[v.type for v in acc], m=WGMMA_M, n=2 * per_block, k=plan.wgmma_k,
                input=plan.wgmma_input, accumulator="f32",
                scale_d="overwrite" if overwrite and kk == 0 else "accumulate", negate_a=False, negate_b=False,
                transpose_a=False, transpose_b=not plan.b_kmajor)
            acc = list(op.result)
        out[block * per_block:(block + 1) * per_block] = acc
    return out


def _arrive_empty(ring: Ring, stage: ir.Value) -> None:
    """Lane 0 of every consumer warp says the warp's MMAs on `stage` are complete. A warp's wgmma wait covers
    the MMAs it issued, and the four warps of a warpgroup need not issue theirs at the same time: every warp
    arrives, not one per warpgroup."""
    ctx = ring.ctx
    with only_if(arith.cmpi(arith.CmpIPredicate.eq, arith.remui(ctx.tid, ctx.i32(WARP_THREADS)), ctx.i32(0))):
        if ring.cluster:
            ring.cluster.release(ring.empty(stage))  # the peers that fill this block's stages wait on it too
        else:
            simt.MbarrierArriveOp.build(ring.empty(stage), None)


def _consume(ring: Ring, step: ir.Value, regs: list[ir.Value], overwrite: bool = False, col: int = 0,
             landed: bool = False) -> list[ir.Value]:
    """Wait for step `step`'s stage to land (unless `landed`: an earlier column chunk waited) and issue this
    warpgroup's MMAs on it into `regs` (columns `col` ..), left in flight."""
    ctx, plan = ring.ctx, ring.plan
    stage, phase = ring.slot(step)
    if not landed:
        simt.MbarrierWaitParityOp.build(ring.full(stage), phase)
    simt.WgmmaFenceOp()
    group = arith.divui(ctx.tid, ctx.i32(WARPGROUP_THREADS))
    group_rows = arith.muli(group, ctx.i32(plan.blocks_per_group * WGMMA_M))
    out = _mma_step(ring, stage, group_rows, regs, overwrite, col)
    simt.WgmmaCommitGroupOp()
    return out


# A PTX template that is only a comment, whose output is tied to its input: a copy of an accumulator register
# that LLVM must keep after the wgmma wait before it (the asm has side effects, and so has the wait). Without it
# LLVM may move a pure use of the accumulator (the epilogue's conversion to bf16) above the wait, and ptxas then
# serializes every wgmma of the kernel (its C7514 warning).
FENCE_OPERAND = ("// wgmma accumulator fence", "=f,0")


def fence_accumulator(regs: list[ir.Value]) -> list[ir.Value]:
    """The accumulator registers, pinned after the preceding wgmma wait."""
    return [build_inline_ptx([r], *FENCE_OPERAND, [r.type])[0] for r in regs]


def consumer_loop(ring: Ring, base: ir.Value, k_tiles: ir.Value, regs: list[ir.Value]) -> list[ir.Value]:
    """The consumer warpgroups' K loop of a specialized pipeline: steps base .. base + k_tiles. Each step's
    MMAs stay in flight while the previous step's stage is released; the last stage is released after the
    final wait, so the producer may reuse every stage (a persistent kernel's next tile does)."""
    if ring.plan.promote:
        if ring.plan.partial_n < ring.plan.bn:
            return _chunked_promoting_loop(ring, base, k_tiles, regs)
        return _promoting_loop(ring, base, k_tiles, regs)
    ctx = ring.ctx
    zero, one = ctx.i32(0), ctx.i32(1)
    loop = scf.ForOp(zero, k_tiles, one, regs)
    with ir.InsertionPoint(loop.body):
        kt = loop.induction_variable
        step = arith.addi(base, kt)
        out = _consume(ring, step, list(loop.inner_iter_args))
        simt.WgmmaWaitGroupOp(pending=1)
        with only_if(arith.cmpi(arith.CmpIPredicate.ugt, kt, zero)):
            _arrive_empty(ring, ring.slot(arith.subi(step, one))[0])
        scf.YieldOp(out)
    simt.WgmmaWaitGroupOp(pending=0)
    with only_if(arith.cmpi(arith.CmpIPredicate.ugt, k_tiles, zero)):
        _arrive_empty(ring, ring.slot(arith.subi(arith.addi(base, k_tiles), one))[0])
    return fence_accumulator(list(loop.results))


def _first_step(ring: Ring, base: ir.Value, k_tiles: ir.Value, zeros: list[ir.Value]) -> tuple[ir.Value, scf.IfOp]:
    """Whether the loop has a K step, and step 0's MMAs into fresh partial sums under that condition (the zeros
    when there is none)."""
    has_steps = arith.cmpi(arith.CmpIPredicate.ugt, k_tiles, ring.ctx.i32(0))
    first = scf.IfOp(has_steps, [z.type for z in zeros], has_else=True)
    with ir.InsertionPoint(first.then_block):
        scf.YieldOp(_consume(ring, base, zeros, overwrite=True))
    with ir.InsertionPoint(first.else_block):
        scf.YieldOp(zeros)
    return has_steps, first


def _promoting_loop(ring: Ring, base: ir.Value, k_tiles: ir.Value, regs: list[ir.Value]) -> list[ir.Value]:
    """The consumers' K loop with promotion (GemmPlan.promote): each step's MMAs sum into their own registers
    (overwriting them), and that partial sum is added to the f32 accumulator once the MMAs are complete. Two
    partial sums alternate, so step s + 1's MMAs are in flight while step s's stage is released and its sum
    added: the loop runs steps in pairs, each partial sum in its own loop-carried registers (a sum handed from
    one position to another would be a register copy of an in-flight wgmma result, which ptxas answers by
    waiting for it)."""
    ctx = ring.ctx
    zero, one, two = ctx.i32(0), ctx.i32(1), ctx.i32(2)
    width = len(regs)

    def complete(acc: list[ir.Value], partial: list[ir.Value], step: ir.Value) -> list[ir.Value]:
        done = fence_accumulator(partial)
        _arrive_empty(ring, ring.slot(step)[0])
        return [arith.addf(a, p) for a, p in zip(acc, done)]

    zeros = [ctx.zero(r.type) for r in regs]
    has_steps, first = _first_step(ring, base, k_tiles, zeros)
    # Pairs (2i + 1, 2i + 2) while both exist; step 2i's sum (even) is in flight at the top of each pair.
    pairs = arith.divsi(arith.maxsi(arith.subi(k_tiles, one), zero), two)
    loop = scf.ForOp(zero, pairs, one, [*regs, *first.results, *zeros])
    with ir.InsertionPoint(loop.body):
        carried = list(loop.inner_iter_args)
        acc, even, odd = carried[:width], carried[width:2 * width], carried[2 * width:]
        odd_step = arith.addi(base, arith.addi(arith.muli(loop.induction_variable, two), one))
        odd = _consume(ring, odd_step, odd, overwrite=True)
        simt.WgmmaWaitGroupOp(pending=1)
        acc = complete(acc, even, arith.subi(odd_step, one))
        even = _consume(ring, arith.addi(odd_step, one), even, overwrite=True)
        simt.WgmmaWaitGroupOp(pending=1)
        acc = complete(acc, odd, odd_step)
        scf.YieldOp([*acc, *even, *odd])
    results = list(loop.results)
    acc, even, odd = results[:width], results[width:2 * width], results[2 * width:]
    last_even = arith.addi(base, arith.muli(pairs, two))
    # An even number of steps leaves one more (odd) step; an odd number, none.
    tail = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ult, arith.addi(arith.muli(pairs, two), one), k_tiles),
                    [r.type for r in regs], has_else=True)
    with ir.InsertionPoint(tail.then_block):
        odd = _consume(ring, arith.addi(last_even, one), odd, overwrite=True)
        simt.WgmmaWaitGroupOp(pending=1)
        out = complete(acc, even, last_even)
        simt.WgmmaWaitGroupOp(pending=0)
        scf.YieldOp(complete(out, odd, arith.addi(last_even, one)))
    with ir.InsertionPoint(tail.else_block):
        simt.WgmmaWaitGroupOp(pending=0)
        out = scf.IfOp(has_steps, [r.type for r in regs], has_else=True)
        with ir.InsertionPoint(out.then_block):
            scf.YieldOp(complete(acc, even, last_even))
        with ir.InsertionPoint(out.else_block):
            scf.YieldOp(acc)
        scf.YieldOp(list(out.results))
    return list(tail.results)


def _chunks(plan: GemmPlan, regs: list[ir.Value]) -> list[list[int]]:
    """For each column chunk of a promoted loop (partial_n columns), the indices of its registers in the
    totals: chunk c of each 64-row block is that block's registers c * partial_n / 2 onwards (the D fragment
    holds 8-column groups in order)."""
    per_block, width = len(regs) // plan.blocks_per_group, plan.partial_n // 2
    return [[block * per_block + c * width + r for block in range(plan.blocks_per_group) for r in range(width)]
            for c in range(plan.bn // plan.partial_n)]


def _chunked_promoting_loop(ring: Ring, base: ir.Value, k_tiles: ir.Value, regs: list[ir.Value]) -> list[ir.Value]:
    """The promoted K loop where the totals and two full-width partial sums do not fit the registers (GemmPlan.
    partial_n < BN; e.g. 128 x 256 tiles): each step's MMAs are issued one column chunk at a time, the chunks
    alternating between two partial sums of partial_n columns, so chunk c's MMAs are in flight while chunk c - 1's
    sum is added to its columns of the totals. The number of chunks is even, so every step's first chunk goes to
    the first partial sum.

    The loop is rotated by one chunk: step 0's first chunk is issued before it, each iteration issues the rest
    of its step and then the next step's first chunk (whose wait completes the step, so its stage is released
    there), and the last step's other chunks follow the loop. With one whole step per iteration (the previous
    step's last chunk in flight across the back edge, completed by the next step's first wait), ptxas
    serialized every wgmma of the kernel (C7514), whether step 0 was peeled or not; rotated it does not."""
    ctx, plan = ring.ctx, ring.plan
    zero, one = ctx.i32(0), ctx.i32(1)
    chunks = _chunks(plan, regs)
    width = len(chunks[0])
    zeros = [ctx.zero(regs[0].type) for _ in range(width)]
    has_steps, first = _first_step(ring, base, k_tiles, zeros)
    # Steps 0 .. k_tiles - 2: each iteration finishes step kt and starts step kt + 1.
    loop = scf.ForOp(zero, arith.maxsi(arith.subi(k_tiles, one), zero), one, [*regs, *first.results, *zeros])
    with ir.InsertionPoint(loop.body):
        step = arith.addi(base, loop.induction_variable)
        acc, partials = _rest_of_step(ring, step, chunks, list(loop.inner_iter_args))
        partials[0] = _consume(ring, arith.addi(step, one), partials[0], overwrite=True)
        simt.WgmmaWaitGroupOp(pending=1)
        _add_chunk(acc, chunks[-1], partials[1])
        _arrive_empty(ring, ring.slot(step)[0])
        scf.YieldOp([*acc, *partials[0], *partials[1]])
    last = scf.IfOp(has_steps, [r.type for r in regs], has_else=True)
    with ir.InsertionPoint(last.then_block):
        step = arith.subi(arith.addi(base, k_tiles), one)
        acc, partials = _rest_of_step(ring, step, chunks, list(loop.results))
        simt.WgmmaWaitGroupOp(pending=0)
        _add_chunk(acc, chunks[-1], partials[1])
        _arrive_empty(ring, ring.slot(step)[0])
        scf.YieldOp(acc)
    with ir.InsertionPoint(last.else_block):
        # Nothing is in flight without steps, but ptxas cannot tell (the first chunk was issued under the same
        # condition); without this wait it inserts one and serializes the kernel's wgmmas.
        simt.WgmmaWaitGroupOp(pending=0)
        scf.YieldOp(list(loop.results)[:len(regs)])
    return list(last.results)


def _rest_of_step(ring: Ring, step: ir.Value, chunks: list[list[int]],
                  carried: list[ir.Value]) -> tuple[list[ir.Value], list[list[ir.Value]]]:
    """Chunks 1 .. of step `step`, whose first chunk is in flight in the first partial sum (`carried`: the
    totals and the two partial sums): each chunk's MMAs are issued, and the chunk before it, then complete, is
    added into the totals. Returns the totals and the partial sums; the last chunk is left in flight."""
    plan = ring.plan
    width = len(chunks[0])
    acc = carried[:-2 * width]
    partials = [carried[-2 * width:-width], carried[-width:]]
    for c in range(1, len(chunks)):
        partials[c % 2] = _consume(ring, step, partials[c % 2], overwrite=True, col=c * plan.partial_n, landed=True)
        simt.WgmmaWaitGroupOp(pending=1)
        _add_chunk(acc, chunks[c - 1], partials[(c - 1) % 2])
    return acc, partials


def _add_chunk(acc: list[ir.Value], chunk: list[int], partial: list[ir.Value]) -> None:
    """Add a completed partial sum into its chunk's registers of the totals (in place). The sums are pinned as
    the partial sum is: otherwise LLVM sinks the additions below the next chunk's MMAs, whose partial sum then
    lives beside the pinned copy of this one, and the 128 x 256 kernel spilled."""
    sums = [arith.addf(acc[index], value) for index, value in zip(chunk, fence_accumulator(partial))]
    for index, value in zip(chunk, fence_accumulator(sums)):
        acc[index] = value


def producer_loop(ring: Ring, origin: TileOrigin, base: ir.Value, k_tiles: ir.Value) -> None:
    """The producer thread's loop: for steps base .. base + k_tiles, wait until the consumers released the
    step's stage (its previous use), then fill it."""
    ctx, plan = ring.ctx, ring.plan
    loop = scf.ForOp(ctx.i32(0), k_tiles, ctx.i32(1))
    with ir.InsertionPoint(loop.body):
        kt = loop.induction_variable
        step = arith.addi(base, kt)
        stage, phase = ring.slot(step)
        with only_if(arith.cmpi(arith.CmpIPredicate.uge, step, ctx.i32(plan.stages))):
            simt.MbarrierWaitParityOp.build(ring.empty(stage), arith.xori(phase, ctx.i32(1)))
        ring.fill(kt, stage, origin)
        scf.YieldOp([])


def inline_loop(ring: Ring, origin: TileOrigin, k_tiles: ir.Value, regs: list[ir.Value]) -> list[ir.Value]:
    """The unspecialized pipeline (steps 0 .. k_tiles): thread 0 fills the first S stages, and then, between
    its own MMAs, refills each stage once every warp has released it."""
    ctx, plan = ring.ctx, ring.plan
    zero, one, stages = ctx.i32(0), ctx.i32(1), ctx.i32(plan.stages)
    first = arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, zero)
    for s in range(plan.stages):
        with only_if(arith.andi(first, arith.cmpi(arith.CmpIPredicate.ult, ctx.i32(s), k_tiles))):
            ring.fill(ctx.i32(s), ctx.i32(s), origin)
    loop = scf.ForOp(zero, k_tiles, one, regs)
    with ir.InsertionPoint(loop.body):
        kt = loop.induction_variable
        out = _consume(ring, kt, list(loop.inner_iter_args))
        # This step's MMAs stay in flight; the previous step's are complete, so its stage can be refilled.
        simt.WgmmaWaitGroupOp(pending=1)
        with only_if(arith.cmpi(arith.CmpIPredicate.ugt, kt, zero)):
            previous = arith.subi(kt, one)
            stage, phase = ring.slot(previous)
            _arrive_empty(ring, stage)
            refill = arith.addi(previous, stages)
            with only_if(arith.andi(first, arith.cmpi(arith.CmpIPredicate.ult, refill, k_tiles))):
                simt.MbarrierWaitParityOp.build(ring.empty(stage), phase)
                ring.fill(refill, stage, origin)
        scf.YieldOp(out)
    simt.WgmmaWaitGroupOp(pending=0)
    return fence_accumulator(list(loop.results))


def tile_origin(ctx: TileLowering, loop: ir.Operation, plan: GemmPlan) -> TileOrigin:
    """The first A row and B column (i32) of the matched loop's tile, and its loads' batches (batched GEMM)."""
    found = match_gemm_loop(loop, loop.block, batched=True)
    assert found is not None  # the plan was made from this match
    a_row, b_col = ctx.scalar(found.a_index[0]), ctx.scalar(found.b_index[1])
    row, col = arith.muli(ctx.to_i32(a_row), ctx.i32(plan.bm)), arith.muli(ctx.to_i32(b_col), ctx.i32(plan.bn))
    if found.batches is None:
        return TileOrigin(row, col)
    a_batch, b_batch = (ctx.to_i32(ctx.scalar(b)) for b in found.batches)
    return TileOrigin(row, col, a_batch, b_batch)


def k_tile_count(ctx: TileLowering, loop: ir.Operation) -> ir.Value:
    """The matched loop's trip count (K tiles), i32."""
    return ctx.to_i32(ctx.scalar(list(loop.operands)[1]))


def initial_accumulator(ctx: TileLowering, loop: ir.Operation, plan: GemmPlan) -> TileValue:
    """The loop's initial accumulator, in the wgmma layout."""
    acc = ctx.tile(list(loop.operands)[3])
    return acc if acc.layout == plan.layout else convert_layout(ctx, acc, plan.layout)

