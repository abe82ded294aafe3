"""Which tile GEMM loops take the Hopper path (docs/tile-hopper.md), and their plan: tile shape, stages, the
stage layout in shared memory, the tensor maps and the accumulator's bit layout.

A pure function of the tile IR and the Target: the same kernel is matched while its parameters are planned
(the tensor maps it adds to the ABI) and while its loop is lowered. A loop that does not match keeps the
mma.sync lowering.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import tile as T
from oxide.ir.rules import is_op
from oxide.passes.conversion.tile_to_simt.gemm_pattern import (
    mapped_k_loop,
    mapped_stored_output,
    match_gemm_loop,
    ops_before,
)
from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
from oxide.passes.conversion.tile_to_simt.layouts import Bit, Layout
from oxide.passes.conversion.tile_to_simt.warpgroups import WGMMA_M, WarpgroupRows
from oxide.target import Target

# One 128-byte swizzle row of 16-bit elements: the K depth of an N-major stage and the N width of one
# N-major B box. Other element sizes have their own row (`GemmPlan.row`).
BK = 64
SWIZZLE_ROW_BYTES = 128
# The swizzle pattern repeats every 8 rows of 128 bytes; stages start on that boundary.
SWIZZLE_ATOM_BYTES = 8 * SWIZZLE_ROW_BYTES
WGMMA_K = 16
# Every wgmma K step reads 32 bytes of each operand row: k16 of 16-bit, k8 of tf32, k32 of fp8.
WGMMA_K_BYTES = 32
MAX_N = 256
# A TMA box is at most 256 elements along each dimension (the A box is BM rows).
MAX_BOX = 256
MAX_STAGES = 4
# Shared memory the rest of the kernel may need next to the ring (static: the mbarriers, the epilogue's layout
# conversions); the ring takes dynamic shared memory up to the chip's limit minus this. 32 KiB leaves four
# stages of 128 x 256 x 64 tiles (192 KiB); a kernel whose static memory does not fit beside its ring is a
# located error after lowering (driver.py), whose remedy is fewer stages.
STATIC_RESERVE = 32 * 1024
# Accumulator registers per thread beyond which the wgmma path is not taken (ptxas would spill).
MAX_ACC_REGISTERS = 128
# With promotion (fp8), the f32 totals and the two partial sums together: the consumers of a specialized
# kernel get 232 registers (setmaxnreg), and about 40 go to addresses, descriptors and loop state.
MAX_PROMOTED_REGISTERS = 192
# Tile element types (as the tile IR spells them) the path takes: their bytes and wgmma's name for them. f32
# operands take it only when the mma asks for tf32 products (`tile.tf32`, from the tile `tf32` type, which is
# f32 in the IR): wgmma reads B from shared memory, so an f32-accurate product (3xTF32) would need hi and lo
# copies of both operands there, twice the ring and three wgmma per step; such loops take the mma.sync path,
# which splits the fragments in registers (mma.py). fp8 rings hold bytes.
INPUTS = {"bf16": (2, "bf16"), "f16": (2, "f16"), "f32": (4, "tf32"), "f8E4M3FN": (1, "e4m3"), "f8E5M2": (1, "e5m2")}
# wgmma input types whose tensor-core accumulation is shorter than f32 (fp8): their stages are promoted.
PROMOTED = ("e4m3", "e5m2")
# The element types wgmma may read MN-major (through the transpose bits): 16-bit ones only (PTX ISA).
TRANSPOSABLE = ("bf16", "f16")
# Output element types the TMA-store epilogue writes, and their bytes.
OUTPUT_BYTES = {"f32": 4, "bf16": 2, "f16": 2}
# Static shared memory beside the ring and the epilogue's boxes in a kernel whose epilogue is the TMA store:
# the mbarriers.
EPILOGUE_RESERVE = 1024
# The producer warpgroup of a specialized pipeline: one thread issues the copies, but setmaxnreg works per
# warpgroup, so the whole warpgroup gives its registers to the consumers.
PRODUCER_THREADS = 128
PRODUCER_REGISTERS = 40
REGISTER_FILE = 65536
MAX_REGISTERS = 232


def map_box(rows: int, width: int, batched: bool) -> tuple[int, ...]:
    """A tensor map's box of `rows` x `width` elements, outermost first; a batched GEMM's maps are rank 3 (the
    batch outermost) and copy one batch: [1, rows, width]."""
    return (1, rows, width) if batched else (rows, width)


@dataclass(frozen=True)
class MapSpec:
    """A tensor map the lowered kernel takes: the tile parameter it describes and its box (outermost first; a
    batched GEMM's maps are rank 3, their boxes [1, rows, width])."""

    param: int
    box: tuple[int, ...]
    elem: str
    # The map describes the tensor's memory with its dimensions reversed: a [K, N] B whose K is innermost
    # (strides (1, K)) read as the [N, K] row-major memory it is, in K-major boxes.
    transposed: bool = False

    @property
    def rows(self) -> int:
        """The box's rows (its second-innermost extent)."""
        return self.box[-2]

    @property
    def width(self) -> int:
        """The box's innermost extent."""
        return self.box[-1]


@dataclass(frozen=True)
class GemmPlan(WarpgroupRows):
    """A matched GEMM loop: `acc[BM, BN] += A[BM, BK] @ B[BK, BN]` per K tile, on sm_90a. B is read N-major
    (`[BK, 64]` boxes of the row-major [K, N] tensor, wgmma's transpose bit) or, with `b_kmajor`, K-major
    (`[BN, row]` boxes of the [N, K] memory of a transposed view)."""

    bm: int
    bn: int
    elem: str
    warps: int
    stages: int
    a_map: MapSpec
    b_map: MapSpec
    specialized: bool = False
    persistent: bool = False
    group_m: int = 8
    bk: int = BK
    b_kmajor: bool = False
    # The TMA-store epilogue's output map (box: BM rows of one 128-byte swizzle row), or None: register stores;
    # and how many staging boxes it alternates between.
    out_map: MapSpec | None = None
    epilogue_boxes: int = 1
    # The thread-block cluster (blocks along M, along N) of a persistent kernel (wgmma_cluster.py): the A map's
    # box is 1 / CN of the A box's rows, the B map's 1 / CM of each B box's, one slice per sharing block.
    cluster: tuple[int, int] = (1, 1)
    # A batched GEMM (docs/tile-hopper.md "Batched GEMM"): rank-3 operands and output, whose maps take the batch
    # as their outermost coordinate, and a persistent walk over batch x tile rows x tile columns.
    batched: bool = False

    def box(self, rows: int, width: int) -> tuple[int, ...]:
        """A map's box of `rows` x `width` (with the unit batch extent in front when batched)."""
        return map_box(rows, width, self.batched)

    @property
    def cluster_blocks(self) -> int:
        """Blocks per cluster (1: no cluster)."""
        return self.cluster[0] * self.cluster[1]

    @property
    def maps(self) -> list[MapSpec]:
        """The kernel's tensor-map parameters, in order: A, B, and the output's for a TMA-store epilogue."""
        return [self.a_map, self.b_map] + ([self.out_map] if self.out_map else [])

    @property
    def epilogue_bytes(self) -> int:
        """Static shared memory of the TMA-store epilogue's staging boxes."""
        return self.epilogue_boxes * self.bm * SWIZZLE_ROW_BYTES if self.out_map else 0

    @property
    def elem_bytes(self) -> int:
        return INPUTS[self.elem][0]

    @property
    def wgmma_input(self) -> str:
        """wgmma's name of the operands' type (tf32 for f32 data)."""
        return INPUTS[self.elem][1]

    @property
    def storage(self) -> str:
        """The ring's element type: the operands', bytes for fp8 (the ring is only copied and read by wgmma)."""
        return "i8" if self.elem_bytes == 1 else self.elem

    @property
    def row(self) -> int:
        """Elements of one 128-byte swizzle row: the K width of a K-major box."""
        return SWIZZLE_ROW_BYTES // self.elem_bytes

    @property
    def wgmma_k(self) -> int:
        return WGMMA_K_BYTES // self.elem_bytes

    @property
    def threads(self) -> int:
        """Threads per block: the consumer warps, and the producer warpgroup when specialized."""
        return 32 * self.warps + (PRODUCER_THREADS if self.specialized else 0)

    @property
    def consumer_registers(self) -> int | None:
        """The registers per consumer thread after setmaxnreg moves the producer's to them, or None when that
        gains nothing: the block starts with the register file split evenly (what ptxas allots for the
        block's size), and setmaxnreg may only raise a consumer above that."""
        if not self.specialized:
            return None
        even = min(255, REGISTER_FILE // self.threads) // 8 * 8
        raised = min(MAX_REGISTERS, (REGISTER_FILE - PRODUCER_THREADS * PRODUCER_REGISTERS) // (32 * self.warps) // 8 * 8)
        return raised if raised > even else None

    @property
    def a_elems(self) -> int:
        return self.bm * self.bk

    @property
    def stage_elems(self) -> int:
        """Elements of one stage: the A boxes (BK / row of BM x row), then the B boxes (BN / 64 of 64 x 64
        N-major, or BK / row of BN x row K-major)."""
        return (self.bm + self.bn) * self.bk

    @property
    def stage_bytes(self) -> int:
        return self.stage_elems * self.elem_bytes

    @property
    def ring_bytes(self) -> int:
        """The dynamic shared memory of the stage ring."""
        return self.stages * self.stage_bytes

    @property
    def acc_registers(self) -> int:
        """f32 accumulator registers per thread: BN / 2 per 64-row block (the totals), and when promoting the
        two partial sums beside them (partial_n / 2 per block each)."""
        totals = self.blocks_per_group * self.bn // 2
        return totals + (2 * self.blocks_per_group * self.partial_n // 2 if self.promote else 0)

    @property
    def partial_n(self) -> int:
        """The columns one partial sum of a promoted loop covers: all BN where the totals and two such sums fit
        in MAX_PROMOTED_REGISTERS, else the widest power-of-two share that fits (at least 64: narrower wgmmas
        read more shared memory per product than the tensor cores can use). A stage's MMAs are then issued one
        column chunk at a time, each into the partial sum the chunk before it is not using."""
        totals = self.blocks_per_group * self.bn // 2
        n = self.bn
        while n > 64 and totals + self.blocks_per_group * n > MAX_PROMOTED_REGISTERS:
            n //= 2
        return n

    @property
    def promote(self) -> bool:
        """Whether each stage's MMAs accumulate into a fresh accumulator that is then added to the f32 one (fp8:
        the tensor cores accumulate fp8 products with fewer bits than f32, so errors grow with K; adding each
        stage's partial sum in f32, as cuBLAS does by default, keeps them at f32's)."""
        return self.wgmma_input in PROMOTED

    @property
    def layout(self) -> Layout:
        """The accumulator's layout: wgmma's D fragment (the m16n8 C layout per warp, repeated along N), the
        warpgroup's row blocks in the high register bits, the warpgroups over the rest of the rows."""
        col_bits = self.bn.bit_length() - 1
        block_bits = self.blocks_per_group.bit_length() - 1
        group_bits = self.warpgroups.bit_length() - 1
        registers = (Bit(1, 0), Bit(0, 3), *(Bit(1, b) for b in range(3, col_bits)),
                     *(Bit(0, 6 + b) for b in range(block_bits)))
        lanes = (Bit(1, 1), Bit(1, 2), Bit(0, 0), Bit(0, 1), Bit(0, 2))
        warps = (Bit(0, 4), Bit(0, 5), *(Bit(0, 6 + block_bits + b) for b in range(group_bits)))
        return Layout((self.bm, self.bn), registers, lanes, warps, "wgmma")


class TileOrigin(NamedTuple):
    """Where a block's operand tiles start (i32): the first A row and B column, and in a batched GEMM the batch
    of A and of B (the maps' outermost coordinate; None otherwise)."""

    row: ir.Value
    col: ir.Value
    a_batch: ir.Value | None = None
    b_batch: ir.Value | None = None

    def a(self, *inner: ir.Value) -> list[ir.Value]:
        """A map's coordinates (innermost first) of the box at `inner`, with A's batch."""
        return [*inner, *([self.a_batch] if self.a_batch is not None else [])]

    def b(self, *inner: ir.Value) -> list[ir.Value]:
        """B map's coordinates (innermost first) of the box at `inner`, with B's batch."""
        return [*inner, *([self.b_batch] if self.b_batch is not None else [])]


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def match_gemm(loop: ir.Operation, entry: ir.Block, target: Target, warps: int,
               knobs: GemmKnobs = GemmKnobs(), b_kmajor: bool = False) -> GemmPlan | None:
    """The plan of `loop` when it is a GEMM K loop the sm_90a path takes (docs/tile-hopper.md) with B read
    N-major (or K-major, `b_kmajor`), else None."""
    if target.tensor_cores != "wgmma" or warps % 4:
        return None
    found = match_gemm_loop(loop, entry, batched=True)
    if found is None:
        return None
    knobs = _feasible(knobs, loop, entry, found.batched)
    plan = _plan(found.mma, knobs.warps or warps, (found.a_param, found.b_param), target, knobs, b_kmajor,
                 found.batched)
    if plan is not None and loop.block != entry and not plan.specialized:
        return None  # the inline shape numbers its ring's steps per tile, so it cannot follow a mapped walk
    if plan is None or knobs.epilogue == "registers" or not plan.specialized:
        return plan
    stored = _stored_output(loop, entry, found.batched) if loop.block == entry else mapped_stored_output(loop)
    return _with_tma_store(plan, stored, target, knobs)


def _stored_output(loop: ir.Operation, entry: ir.Block, batched: bool) -> tuple[int, str] | None:
    """(the output parameter, its element type) when all the kernel does after the loop is store the
    accumulator, converted or not, into its own output tile: `z.store(acc)` or `z.store(convert(acc))`; batched,
    the accumulator is also reshaped to the output's [1, BM, BN] tile (before or after the conversion)."""
    ops = [o.operation for o in entry.operations]
    after = ops[ops.index(loop) + 1:-1]
    value = loop.results[0]
    allowed = (arith.TruncFOp, T.ReshapeOp) if batched else (arith.TruncFOp,)
    while len(after) > 1 and is_op(after[0], *allowed) and after[0].operands[0] == value \
            and len(list(value.uses)) == 1:
        allowed = tuple(kind for kind in allowed if not is_op(after[0], kind))
        value = after[0].results[0]
        after = after[1:]
    if len(after) != 1 or not is_op(after[0], T.StoreOwnOp) or after[0].operands[1] != value:
        return None
    view = after[0].operands[0]
    if not isinstance(view, ir.BlockArgument) or view.owner != entry or not T.ViewMutType.isinstance(view.type):
        return None
    stored = T.shape_of(view.type)
    if (stored[1:] if batched else stored) != T.shape_of(loop.results[0].type) or (batched and stored[0] != 1):
        return None
    if len(list(value.uses)) != 1:
        return None
    return view.arg_number, str(T.elem_of(view.type))


def _with_tma_store(plan: GemmPlan, stored: tuple[int, str] | None, target: Target, knobs: GemmKnobs) -> GemmPlan:
    """The plan with a TMA-store epilogue where the kernel's epilogue is a plain store of a type TMA takes; the
    ring keeps as many stages as fit beside the staging boxes (the kernel declares nothing else): two boxes
    unless the second would cost the ring a stage."""
    if stored is None or stored[1] not in OUTPUT_BYTES:
        return plan
    param, elem = stored
    out_map = MapSpec(param, plan.box(plan.bm, SWIZZLE_ROW_BYTES // OUTPUT_BYTES[elem]), elem)
    stages = knobs.stages or MAX_STAGES
    for boxes in (2, 1):
        staged = replace(plan, out_map=out_map, epilogue_boxes=boxes)
        fits = (target.shared_memory_per_block - staged.epilogue_bytes - EPILOGUE_RESERVE) // plan.stage_bytes
        if fits >= min(stages, MAX_STAGES) or (boxes == 1 and fits >= 2):
            return replace(staged, stages=min(stages, fits))
    return plan


def _feasible(knobs: GemmKnobs, loop: ir.Operation, entry: ir.Block, batched: bool) -> GemmKnobs:
    """The knobs with specialization off where the kernel cannot take it (an op before the loop writes memory
    or has regions: the producer warpgroup would run it too, in a layout made for the consumers), and
    persistence off where there is no output view whose tile grid a persistent kernel could walk: rank 2, or
    batched rank 3 with tiles of one batch. A mapped walk's K loop is never made persistent: the walk is the
    kernel's own, and gemm_kernel.py follows it."""
    before = ops_before(loop, entry)
    quiet = all(not len(op.regions) and not is_op(op, T.StoreOp, T.StoreOwnOp, T.AtomicRmwOp)
                and op.name.split(".")[0] in (T.DIALECT.name, "arith", "math") for op in before)
    outputs = [a for a in entry.arguments if T.ViewMutType.isinstance(a.type)]
    walkable = bool(outputs) and loop.block == entry and all(_walkable(T.shape_of(a.type), batched) for a in outputs)
    specialize = knobs.specialize if quiet else "off"
    persistent = knobs.persistent if specialize != "off" and walkable else "off"
    return replace(knobs, specialize=specialize, persistent=persistent)


def _walkable(tile: list[int], batched: bool) -> bool:
    """Whether the persistent walk can hand out tiles of this output tile shape: [BM, BN], or batched [1, BM, BN]."""
    return len(tile) == 3 and tile[0] == 1 if batched else len(tile) == 2


def _consumer_warps(bm: int, bn: int, warps: int, pinned: bool, copies: int = 1) -> int:
    """The kernel's warps, raised (unless the knob pins them) until `copies` accumulators fit in registers."""
    while not pinned and copies * bm * bn // (32 * warps) > MAX_ACC_REGISTERS and warps < 16 \
            and (bm // WGMMA_M) % (2 * warps // 4) == 0:
        warps *= 2
    return warps


def _tile_fits(elem: str, bm: int, bk: int, bn: int, b_kmajor: bool) -> bool:
    """Whether wgmma and 128-byte-swizzled TMA boxes take these tiles: N-major B only for 16-bit types and one
    swizzle row of K; K-major B in whole swizzle rows of K."""
    row = SWIZZLE_ROW_BYTES // INPUTS[elem][0]
    if bm % WGMMA_M or bm > MAX_BOX or bn % BK or bn > MAX_N or not _power_of_two(bn):
        return False
    return bk % row == 0 if b_kmajor else elem in TRANSPOSABLE and bk == BK


def _plan(mma: ir.Operation, warps: int, params: tuple[int, int], target: Target, knobs: GemmKnobs, b_kmajor: bool,
          batched: bool) -> GemmPlan | None:
    lhs, rhs = (v.type for v in list(mma.operands)[:2])
    elem = str(T.elem_of(lhs))
    if elem not in INPUTS or str(T.elem_of(rhs)) != elem or str(T.elem_of(mma.results[0].type)) != "f32":
        return None
    if elem == "f32" and not T.multiplies_as_tf32(mma):
        return None
    (bm, bk), (bk2, bn) = T.shape_of(lhs), T.shape_of(rhs)
    if bk != bk2 or not _tile_fits(elem, bm, bk, bn, b_kmajor):
        return None
    warps = _consumer_warps(bm, bn, warps, bool(knobs.warps), 2 if INPUTS[elem][1] in PROMOTED else 1)
    blocks, groups = bm // WGMMA_M, warps // 4
    if not _power_of_two(blocks) or not _power_of_two(groups) or blocks % groups:
        return None
    fits = (target.shared_memory_per_block - STATIC_RESERVE) // ((bm + bn) * bk * INPUTS[elem][0])
    stages = min(knobs.stages or MAX_STAGES, fits)
    specialized, persistent = knobs.specialize != "off", knobs.persistent != "off"
    row = SWIZZLE_ROW_BYTES // INPUTS[elem][0]
    # Clusters are the persistent kernel's (its tile walk hands a cluster neighbouring tiles).
    cm, cn = knobs.cluster_shape if persistent else (1, 1)
    b_map = MapSpec(params[1], map_box(bn // cm, row, batched), elem, transposed=True) if b_kmajor else \
        MapSpec(params[1], map_box(BK // cm, BK, batched), elem)
    a_map = MapSpec(params[0], map_box(bm // cn, row, batched), elem)
    plan = GemmPlan(bm, bn, elem, warps, stages, a_map, b_map, specialized,
                    persistent, knobs.group_m, bk, b_kmajor, cluster=(cm, cn), batched=batched)
    limit = MAX_PROMOTED_REGISTERS if plan.promote else MAX_ACC_REGISTERS
    if stages < 2 or plan.acc_registers > limit or plan.threads > 1024:
        return None
    # Promotion is built into the consumers' loop only (thread 0's inline loop would accumulate unpromoted).
    return None if plan.promote and not plan.specialized else plan


def kernel_gemms(func: ir.Operation, target: Target, warps: int,
                 knobs: GemmKnobs = GemmKnobs()) -> list[tuple[ir.Operation, GemmPlan]]:
    """The kernel's first top-level GEMM loop the sm_90a path takes, with its plans in the order a launch tries
    them: B N-major, then B K-major (each where the element type and tiles allow it); empty if none. Only one
    loop per kernel takes the path: the ring is the launch's dynamic shared memory, which a second loop would
    have to share."""
    entry = func.regions[0].blocks[0]
    for op in entry.operations:
        loop = mapped_k_loop(op.operation) or op.operation  # a mapped walk's K loop (gemm_pattern.mapped_walk)
        plans = [match_gemm(loop, entry, target, warps, knobs, b_kmajor) for b_kmajor in (False, True)]
        found = [(loop, plan) for plan in plans if plan is not None]
        if found:
            return found
    return []


def kernel_gemm(func: ir.Operation, target: Target, warps: int,
                knobs: GemmKnobs = GemmKnobs()) -> tuple[ir.Operation, GemmPlan] | None:
    """The kernel's GEMM loop and the plan of its primary entry (kernel_gemms' first), or None."""
    found = kernel_gemms(func, target, warps, knobs)
    return found[0] if found else None
