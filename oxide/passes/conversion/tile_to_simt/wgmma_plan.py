"""Which tile GEMM loops take the Hopper path (docs/tile-hopper.md), and their plan: tile shape, stages, the
stage layout in shared memory, the tensor maps and the accumulator's bit layout.

A pure function of the tile IR and the Target: the same kernel is matched while its parameters are planned
(the tensor maps it adds to the ABI) and while its loop is lowered. A loop that does not match keeps the
mma.sync lowering.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from oxide.dialects import tile as T
from oxide.passes.conversion.tile_to_simt.gemm_pattern import match_gemm_loop
from oxide.passes.conversion.tile_to_simt.layouts import Bit, Layout
from oxide.target import Target

# One 128-byte swizzle row of 16-bit elements: the K depth of a stage and the N width of one B box.
BK = 64
SWIZZLE_ROW_BYTES = 128
# The swizzle pattern repeats every 8 rows of 128 bytes; stages start on that boundary.
SWIZZLE_ATOM_BYTES = 8 * SWIZZLE_ROW_BYTES
WGMMA_M = 64
WGMMA_K = 16
MAX_N = 256
# A TMA box is at most 256 elements along each dimension (the A box is BM rows).
MAX_BOX = 256
MAX_STAGES = 4
# Shared memory the rest of the kernel may need next to the ring (static: the mbarriers, the epilogue's layout
# conversions); the ring takes dynamic shared memory up to the chip's limit minus this.
STATIC_RESERVE = 48 * 1024
# Accumulator registers per thread beyond which the wgmma path is not taken (ptxas would spill).
MAX_ACC_REGISTERS = 128
INPUTS = ("bf16", "f16")


@dataclass(frozen=True)
class MapSpec:
    """A tensor map the lowered kernel takes: the tile parameter it describes and its box (outermost first)."""

    param: int
    box: tuple[int, int]
    elem: str


@dataclass(frozen=True)
class GemmPlan:
    """A matched GEMM loop: `acc[BM, BN] += A[BM, 64] @ B[64, BN]` per K tile, on sm_90a."""

    bm: int
    bn: int
    elem: str
    warps: int
    stages: int
    a_map: MapSpec
    b_map: MapSpec

    @property
    def warpgroups(self) -> int:
        return self.warps // 4

    @property
    def blocks_per_group(self) -> int:
        """64-row blocks of the tile each warpgroup computes."""
        return self.bm // WGMMA_M // self.warpgroups

    @property
    def a_elems(self) -> int:
        return self.bm * BK

    @property
    def stage_elems(self) -> int:
        """Elements of one stage: the A box, then BN / 64 B boxes of 64 x 64."""
        return (self.bm + self.bn) * BK

    @property
    def stage_bytes(self) -> int:
        return self.stage_elems * 2

    @property
    def ring_bytes(self) -> int:
        """The dynamic shared memory of the stage ring."""
        return self.stages * self.stage_bytes

    @property
    def acc_registers(self) -> int:
        """f32 accumulator values per thread: BN / 2 per 64-row block."""
        return self.blocks_per_group * self.bn // 2

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


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def match_gemm(loop: ir.Operation, entry: ir.Block, target: Target, warps: int) -> GemmPlan | None:
    """The plan of `loop` when it is a GEMM K loop the sm_90a path takes (docs/tile-hopper.md), else None."""
    if target.tensor_cores != "wgmma" or warps % 4:
        return None
    found = match_gemm_loop(loop, entry)
    if found is None:
        return None
    return _plan(found.lhs, found.rhs, found.mma, warps, found.a_param, found.b_param, target)


def _plan(lhs: ir.Operation, rhs: ir.Operation, mma: ir.Operation, warps: int, a_param: int,
          b_param: int, target: Target) -> GemmPlan | None:
    elem = str(T.elem_of(lhs.results[0].type))
    if elem not in INPUTS or str(T.elem_of(rhs.results[0].type)) != elem or str(T.elem_of(mma.results[0].type)) != "f32":
        return None
    (bm, bk), (bk2, bn) = T.shape_of(lhs.results[0].type), T.shape_of(rhs.results[0].type)
    if bk != BK or bk2 != BK or bm % WGMMA_M or bm > MAX_BOX or bn % BK or bn > MAX_N or not _power_of_two(bn):
        return None
    blocks, groups = bm // WGMMA_M, warps // 4
    if not _power_of_two(blocks) or blocks % groups:
        return None
    stages = min(MAX_STAGES, (target.shared_memory_per_block - STATIC_RESERVE) // ((bm + bn) * BK * 2))
    plan = GemmPlan(bm, bn, elem, warps, stages, MapSpec(a_param, (bm, BK), elem), MapSpec(b_param, (BK, BK), elem))
    if stages < 2 or plan.acc_registers > MAX_ACC_REGISTERS:
        return None
    return plan


def kernel_gemm(func: ir.Operation, target: Target, warps: int) -> tuple[ir.Operation, GemmPlan] | None:
    """The kernel's first top-level GEMM loop the sm_90a path takes, and its plan. Only one loop per kernel
    takes it: the ring is the launch's dynamic shared memory, which a second loop would have to share."""
    entry = func.regions[0].blocks[0]
    for op in entry.operations:
        plan = match_gemm(op.operation, entry, target, warps)
        if plan is not None:
            return op.operation, plan
    return None
