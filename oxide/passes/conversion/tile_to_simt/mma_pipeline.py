"""The GEMM K loop on the mma.sync path (sm_80 up to plain sm_90, and f32-accurate f32 products on sm_90a) as
a multi-stage cp.async pipeline (docs/tile-mma.md, "Pipelined K loops (cp.async)").

A loop of the GEMM pattern (gemm_pattern.py) whose tiles mma.py can run keeps S stages of its a and b tiles
in the launch's dynamic shared memory, each stage in the staging layout of mma_layouts.py (padded rows: no
ldmatrix bank conflicts). Every thread copies its share of a stage with cp.async (16-byte chunks, zero-filled
past the tensors' edges), one commit group per stage:

    prologue: for s < S - 1: copy tile s into stage s (if s < k_tiles); commit
    for kt in 0..k_tiles:
        wait_group(S - 2); barrier          // tile kt has landed for every thread; stage (kt - 1) % S is free
        copy tile kt + S - 1 into stage (kt + S - 1) % S (if it exists); commit
        ldmatrix + mma.sync on stage kt % S
    wait_group(0)

Groups are committed even when empty, so group g is always tile g. Chunks are copied with cp.async only when
the view's innermost stride is 1 and its base address and row pitch are 16-byte aligned (decided at run time,
once per launch); otherwise the tile is copied element by element with ordinary loads and stores into the
same stage, which the same barriers order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.ir.rules import LoweringError
from oxide.passes.conversion.tile_to_simt import mma_layouts as ml
from oxide.passes.conversion.tile_to_simt.context import (
    PartitionValue,
    TileLowering,
    ViewValue,
    i_type,
    ptr_offset,
)
from oxide.passes.conversion.tile_to_simt.gemm_pattern import GemmLoop, match_gemm_loop
from oxide.passes.conversion.tile_to_simt.layouts import TileValue
from oxide.passes.conversion.tile_to_simt.mma import fragment_mode, warp_mma
from oxide.passes.conversion.tile_to_simt.remap import convert_layout, only_if
from oxide.target import Target

MAX_STAGES = 4
MIN_STAGES = 2
# Static shared memory the rest of the kernel may declare next to the ring (layout conversions, reductions).
STATIC_RESERVE = 8 * 1024
CHUNK_BYTES = 16
# Stages start on a 128-byte boundary (16-byte cp.async destinations and ldmatrix rows need 16).
STAGE_ALIGN = 128


@dataclass(frozen=True)
class PipelinePlan:
    """A pipelined GEMM loop: the mma plan of one K tile and the number of stages."""

    mma: ml.MmaPlan
    stages: int

    @property
    def stage_bytes(self) -> int:
        return -(-self.mma.shared_bytes // STAGE_ALIGN) * STAGE_ALIGN

    @property
    def stage_elems(self) -> int:
        return self.stage_bytes // self.mma.instr.in_bytes

    @property
    def ring_bytes(self) -> int:
        """The dynamic shared memory of the stage ring."""
        return self.stages * self.stage_bytes


def choose_stages(stage_bytes: int, target: Target, stages: int | None = None) -> int:
    """S: `stages` when given (the lowering's knob), else as many stages as the chip's shared memory per block
    holds next to STATIC_RESERVE, at most MAX_STAGES."""
    if stages is not None:
        return stages
    return min(MAX_STAGES, (target.shared_memory_per_block - STATIC_RESERVE) // stage_bytes)


def match_pipeline(loop: ir.Operation, entry: ir.Block, target: Target, warps: int,
                   stages: int | None = None) -> tuple[GemmLoop, PipelinePlan] | None:
    """The pipeline of `loop` when it is a GEMM K loop the mma.sync path runs and S >= 2 stages fit; else None
    (the loop keeps the synchronous lowering, which reports what it cannot run). On sm_90a that is an
    f32-accurate f32 product only: the wgmma path does not take it (wgmma_plan.INPUTS)."""
    if target.tensor_cores is None:
        return None
    found = match_gemm_loop(loop, entry)
    if found is None:
        return None
    if target.tensor_cores == "wgmma" and not _f32_accurate(found.mma):
        return None
    lhs, rhs, acc = found.lhs.results[0].type, found.rhs.results[0].type, found.mma.results[0].type
    try:
        plan = ml.plan_mma(T.shape_of(lhs), T.shape_of(rhs), str(T.elem_of(lhs)), str(T.elem_of(acc)), warps)
    except LoweringError:
        return None
    # fp8 operands are converted to f16 between their load and the staging (mma.py); the ring would hold fp8
    # bytes that ldmatrix cannot turn into f16 fragments, so they keep the synchronous lowering.
    if str(T.elem_of(rhs)) != str(T.elem_of(lhs)) or str(T.elem_of(lhs)) in ("f8E4M3FN", "f8E5M2"):
        return None
    stage = PipelinePlan(plan, 1).stage_bytes
    count = choose_stages(stage, target, stages)
    if count < MIN_STAGES or count * stage > target.shared_memory_per_block - STATIC_RESERVE:
        return None
    return found, PipelinePlan(plan, count)


def _f32_accurate(mma: ir.Operation) -> bool:
    return str(T.elem_of(mma.operands[0].type)) == "f32" and not T.multiplies_as_tf32(mma)


def kernel_pipeline(func: ir.Operation, target: Target, warps: int,
                    stages: int | None = None) -> tuple[GemmLoop, PipelinePlan] | None:
    """The kernel's first top-level GEMM loop the pipeline takes. One loop per kernel: the ring is the launch's
    dynamic shared memory."""
    entry = func.regions[0].blocks[0]
    for op in entry.operations:
        matched = match_pipeline(op.operation, entry, target, warps, stages)
        if matched is not None:
            return matched
    return None


def _i64(value: ir.Value) -> ir.Value:
    return value if str(value.type) == "i64" else arith.extsi(i_type(64), value)


def _lt(a: ir.Value, b: ir.Value) -> ir.Value:
    return arith.cmpi(arith.CmpIPredicate.ult, a, b)


def _plus(ctx: TileLowering, value: ir.Value, constant: int) -> ir.Value:
    """value + constant (i32), no op for 0."""
    return value if constant == 0 else arith.addi(value, ctx.i32(constant))


@dataclass
class _Operand:
    """One operand's copy: its view, the tile's rows x cols, where the tile sits in a stage (element offset,
    row stride), its origin as (row, col) functions of the K tile, and whether chunks may use cp.async."""

    view: ViewValue
    rows: int
    cols: int
    offset: int
    stride: int
    origin: Any
    fast: ir.Value | None = None
    # This thread's first chunk (row, chunk in the row) and its element offset in a stage, set by _Copier.
    thread: tuple[ir.Value, ir.Value, ir.Value] | None = None


class _Copier:
    """The code that fills one stage with K tile kt of both operands."""

    def __init__(self, ctx: TileLowering, plan: PipelinePlan, ring: ir.Value, operands: list[_Operand]):
        self.ctx, self.plan, self.ring, self.operands = ctx, plan, ring, operands
        self.threads = 32 * ctx.warps
        self.elem_bytes = plan.mma.instr.in_bytes
        for operand in operands:
            operand.fast = self._aligned(operand.view)
            operand.thread = self._thread(operand)

    def _thread(self, operand: _Operand) -> tuple[ir.Value, ir.Value, ir.Value]:
        """This thread's first chunk of `operand`: its row and its chunk in the row in the tile, and the stage
        offset (elements) it is copied to. Computed once, before the prologue: every fill starts from it."""
        ctx = self.ctx
        per_chunk = CHUNK_BYTES // self.elem_bytes
        per_row = operand.cols // per_chunk
        row, chunk = arith.divui(ctx.tid, ctx.i32(per_row)), arith.remui(ctx.tid, ctx.i32(per_row))
        at = arith.addi(arith.muli(row, ctx.i32(operand.stride)), arith.muli(chunk, ctx.i32(per_chunk)))
        return row, chunk, arith.addi(at, ctx.i32(operand.offset))

    def _aligned(self, view: ViewValue) -> ir.Value:
        """Whether the view's rows can be copied in 16-byte chunks: innermost stride 1, base and row pitch
        16-byte aligned (run time, block-uniform)."""
        ctx = self.ctx
        mask = ctx.i64(CHUNK_BYTES - 1)
        address = simt.PtrToIntOp.build(view.ptr, results=[i_type(64)])
        pitch = arith.muli(view.strides[0], ctx.i64(self.elem_bytes))
        unit = arith.cmpi(arith.CmpIPredicate.eq, view.strides[1], ctx.i64(1))
        misaligned = arith.ori(arith.andi(address, mask), arith.andi(pitch, mask))
        return arith.andi(unit, arith.cmpi(arith.CmpIPredicate.eq, misaligned, ctx.i64(0)))

    def stage(self, slot: ir.Value) -> ir.Value:
        """The first element of stage `slot` (i32)."""
        start = arith.muli(slot, self.ctx.i32(self.plan.stage_elems))
        return ptr_offset(self.ring, self.ctx.index(start))

    def fill(self, kt: ir.Value, slot: ir.Value) -> None:
        """Copy K tile `kt` of both operands into stage `slot`."""
        base = self.stage(slot)
        for operand in self.operands:
            row0, col0 = operand.origin(kt)
            branch = scf.IfOp(operand.fast, has_else=True)
            with ir.InsertionPoint(branch.then_block):
                self._chunks(operand, base, row0, col0)
                scf.YieldOp([])
            with ir.InsertionPoint(branch.else_block):
                self._elements(operand, base, row0, col0)
                scf.YieldOp([])

    def _chunks(self, operand: _Operand, base: ir.Value, row0: ir.Value, col0: ir.Value) -> None:
        """cp.async of this thread's 16-byte chunks, each reading only its elements inside the tensor.

        Threads and chunks per row are powers of two (tile dimensions and warps are), so one divides the other:
        the thread's chunk in the round starting at chunk `first` sits divmod(first, per_row) (rows, chunks)
        from its chunk in the first round. The thread's row, column checks and shared offset are computed once
        per fill and each chunk adds constants: a third of the ops per chunk, for every later stage and LLVM."""
        ctx = self.ctx
        per_chunk = CHUNK_BYTES // self.elem_bytes
        per_row = operand.cols // per_chunk
        chunks = operand.rows * per_row
        thread_row, thread_chunk, thread_at = operand.thread
        row_t = arith.addi(row0, arith.extui(i_type(64), thread_row))
        rounds = range(0, chunks, self.threads)
        columns = {dc: self._column(operand, col0, _plus(ctx, thread_chunk, dc), per_chunk)
                   for dc in sorted({first % per_row for first in rounds})}
        for first in rounds:
            with only_if(None if first + self.threads <= chunks else _lt(ctx.tid, ctx.i32(chunks - first))):
                dr, dc = divmod(first, per_row)
                row = row_t if dr == 0 else arith.addi(row_t, ctx.i64(dr))
                col, col_inside, size = columns[dc]
                inside = arith.andi(_lt(row, operand.view.shape[0]), col_inside)
                at = arith.addi(arith.muli(row, operand.view.strides[0]), col)
                src = ptr_offset(operand.view.ptr, ctx.index(arith.select(inside, at, ctx.i64(0))))
                dst = ptr_offset(base, ctx.index(_plus(ctx, thread_at, dr * operand.stride + dc * per_chunk)))
                simt.CpAsyncOp(dst, src, arith.select(inside, size, ctx.i32(0)), bytes=CHUNK_BYTES)

    def _column(self, operand: _Operand, col0: ir.Value, chunk: ir.Value,
                per_chunk: int) -> tuple[ir.Value, ir.Value, ir.Value]:
        """For the chunk `chunk` (i32) of a tile row: its first column in the tensor (i64), whether that is inside
        the tensor, and the bytes of the chunk inside it."""
        ctx = self.ctx
        col = arith.addi(col0, arith.extui(i_type(64), arith.muli(chunk, ctx.i32(per_chunk))))
        left = arith.subi(operand.view.shape[1], col)
        count = arith.trunci(i_type(32), arith.minsi(left, ctx.i64(per_chunk)))
        return (col, arith.cmpi(arith.CmpIPredicate.sgt, left, ctx.i64(0)),
                arith.muli(count, ctx.i32(self.elem_bytes)))

    def _elements(self, operand: _Operand, base: ir.Value, row0: ir.Value, col0: ir.Value) -> None:
        """Ordinary loads and stores of this thread's elements (0 past the tensor's edges), in a loop."""
        ctx = self.ctx
        view = operand.view
        total = operand.rows * operand.cols
        steps = -(-total // self.threads)
        loop = scf.ForOp(ctx.i32(0), ctx.i32(steps), ctx.i32(1))
        with ir.InsertionPoint(loop.body):
            e = arith.addi(ctx.tid, arith.muli(loop.induction_variable, ctx.i32(self.threads)))
            with only_if(None if total % self.threads == 0 else _lt(e, ctx.i32(total))):
                r, c = arith.divui(e, ctx.i32(operand.cols)), arith.remui(e, ctx.i32(operand.cols))
                row = arith.addi(row0, arith.extui(i_type(64), r))
                col = arith.addi(col0, arith.extui(i_type(64), c))
                inside = arith.andi(_lt(row, view.shape[0]), _lt(col, view.shape[1]))
                load = scf.IfOp(inside, [view.elem], has_else=True)
                with ir.InsertionPoint(load.then_block):
                    at = arith.addi(arith.muli(row, view.strides[0]), arith.muli(col, view.strides[1]))
                    scf.YieldOp([simt.PtrLoadOp.build(ptr_offset(view.ptr, ctx.index(at)),
                                                      results=[view.elem])])
                with ir.InsertionPoint(load.else_block):
                    scf.YieldOp([ctx.zero(view.elem)])
                dst_at = arith.addi(arith.addi(arith.muli(r, ctx.i32(operand.stride)), c), ctx.i32(operand.offset))
                simt.PtrStoreOp(ptr_offset(base, ctx.index(dst_at)), load.results[0])
            scf.YieldOp([])


def _operands(ctx: TileLowering, found: GemmLoop, plan: ml.MmaPlan) -> list[_Operand]:
    """A (rows i * BM.., columns kt * BK..) and B (rows kt * BK.., columns j * BN..)."""
    a_part: PartitionValue = ctx.lowered(found.lhs.operands[0])
    b_part: PartitionValue = ctx.lowered(found.rhs.operands[0])
    a_row = arith.muli(_i64(ctx.scalar(found.lhs.operands[1])), ctx.i64(plan.m))
    b_col = arith.muli(_i64(ctx.scalar(found.rhs.operands[2])), ctx.i64(plan.n))

    def k_start(kt: ir.Value) -> ir.Value:
        return arith.muli(arith.extui(i_type(64), kt), ctx.i64(plan.k))

    return [_Operand(a_part.view, plan.m, plan.k, 0, plan.a_stride, lambda kt: (a_row, k_start(kt))),
            _Operand(b_part.view, plan.k, plan.n, plan.b_base, plan.b_stride, lambda kt: (k_start(kt), b_col))]


def lower_pipelined_loop(ctx: TileLowering, found: GemmLoop, plan: PipelinePlan) -> TileValue:
    """The matched K loop as the cp.async pipeline (module docstring); its result in the mma layout."""
    mma = plan.mma
    acc = ctx.tile(list(found.loop.operands)[3])
    if acc.layout != mma.layout:
        acc = convert_layout(ctx, acc, mma.layout)
    elem = T.elem_of(found.lhs.results[0].type)
    ring = simt.DynamicSharedOp.build(ctx.index(ctx.i32(0)), align=STAGE_ALIGN,
                                      results=[ir.Type.parse(f"!simt.ptr<{elem}, 3>")])
    copier = _Copier(ctx, plan, ring, _operands(ctx, found, mma))
    k_tiles = ctx.to_i32(ctx.scalar(list(found.loop.operands)[1]))
    stages = plan.stages
    # The prologue is a loop, not S - 1 copies of the fill: a third of the IR every later stage and LLVM see.
    prologue = scf.ForOp(ctx.i32(0), ctx.i32(stages - 1), ctx.i32(1))
    with ir.InsertionPoint(prologue.body):
        s = prologue.induction_variable
        with only_if(_lt(s, k_tiles)):
            copier.fill(s, s)
        simt.CpAsyncCommitGroupOp()
        scf.YieldOp([])
    loop = scf.ForOp(ctx.i32(0), k_tiles, ctx.i32(1), list(acc.values))
    with ir.InsertionPoint(loop.body):
        kt = loop.induction_variable
        simt.CpAsyncWaitGroupOp(pending=stages - 2)
        # Every thread's copies of tile kt are visible, and every thread is done reading the stage refilled next.
        ctx.barrier()
        ahead = arith.addi(kt, ctx.i32(stages - 1))
        with only_if(_lt(ahead, k_tiles)):
            copier.fill(ahead, arith.remui(ahead, ctx.i32(stages)))
        simt.CpAsyncCommitGroupOp()
        base = copier.stage(arith.remui(kt, ctx.i32(stages)))
        # cp.async copies f32 tiles unrounded: tf32 products round them in registers, f32 ones split them.
        mode = fragment_mode(mma, found.mma, staged_rounded=False)
        regs = warp_mma(ctx, mma, base, list(loop.inner_iter_args), mode)
        scf.YieldOp(regs)
    simt.CpAsyncWaitGroupOp(pending=0)
    return TileValue(mma.layout, list(loop.results))
