"""The warps of a tile kernel without tensor-core products, raised when its tiles would crowd the registers, and
the blocks per SM it asks ptxas to leave room for.

A tile value lives in registers, spread over the block's threads (layouts.py). The kernel's warp hint
(`num_worker_warps_per_cta`, default 4) suits small tiles; with large ones every thread holds so many values
that the kernel nears the 255-register limit. A row softmax over 4 x 4096 f32 tiles at 4 warps holds 128 values
per thread per tile and took 254 registers. The lowering therefore takes the hint as a floor and doubles the
warps (up to MAX_WARPS) until the largest tile the kernel computes is at most BUDGET 32-bit values per thread.
Kernels with `mma` keep their warps: their layouts and the GEMM plans choose warps themselves.

What a memory-bound row kernel needs is bytes in flight: each SM must hold enough rows being loaded while other
blocks reduce and store. Measured on the H200 against Triton (f32, GPU time alone; docs/tile-lowering.md), at
16384 x 4096 with 4 rows per block:
  - 8 warps (64 values a thread, 107-128 registers, two blocks per SM): softmax 1.01x, LayerNorm 0.995x,
    RMSNorm 0.99x;
  - 16 warps (32 values a thread): softmax 1.01x and RMSNorm 1.00x at 64 registers, two blocks per SM, but
    LayerNorm took 76 registers, one 512-thread block per SM, half the rows in flight: 0.83x;
  - 16 warps with two blocks per SM declared (`.minnctapersm 2`: ptxas holds LayerNorm to 64 registers, no
    spills): 1.01x, 1.00x, 1.00x.
So BUDGET is 32, and a 16-warp kernel whose values leave room (min_blocks_per_sm) declares two blocks per SM.
4 x 1024 tiles keep the hint's 4 warps (at 16 they lost 3-35%: every row then crosses four warps).

A row vector ([N] or [1, N]) is reduced across the warps whatever their number, so for it more warps cost no
extra barrier and only shorten each thread's share: such tiles get at most ROW_BUDGET values per thread. One
row of 4096 f32 then runs on 8 warps (16 values per thread); measured on the H200 at 16384 x 4096, one row per
block, against Triton: softmax 0.98x -> 1.02x, LayerNorm 1.00x and RMSNorm 0.99x unchanged. (At 16 warps
LayerNorm's 48 registers let only two 512-thread blocks, 2 rows, onto an SM: 0.75x.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from mlir import ir

from oxide.dialects import tile as T
from oxide.ir.rules import is_op
from oxide.ir.walk import walk
from oxide.passes.conversion.tile_to_simt.context import bit_width

# 32-bit values of one tile per thread: a few such tiles live at once (input, exponentials, output).
BUDGET = 32
# 32-bit values per thread of a row vector (a tile with one row).
ROW_BUDGET = 16
# 512 threads: the block still leaves room for a second block per SM when the kernel needs few registers.
MAX_WARPS = 16
# An SM's 32-bit registers (sm_80 to sm_90), and the registers a thread of a kernel without `mma` takes beside its
# largest tile's values (addresses, masks, row totals): LayerNorm at [4, 4096] over 16 warps holds 32 values
# and fits 64 registers without spills.
REGISTER_FILE = 65536
OVERHEAD = 32


class WarpPlan(NamedTuple):
    """How a kernel without `mma` spreads over its block: `warps`; `warps_outer`, whether the blocked layouts give
    each warp whole rows (layouts.blocked); `min_blocks`, the blocks per SM declared to ptxas (`.minnctapersm`,
    0: none)."""

    warps: int
    warps_outer: bool
    min_blocks: int


def budget_warps(func: ir.Operation, hint: int, fixed: int = 0) -> int:
    """The warps `func` (a tile kernel) runs with: at least `hint`, more while its largest tile exceeds BUDGET
    values per thread, or its largest row vector ROW_BUDGET (never past MAX_WARPS, never fewer than the hint);
    `fixed` (the `warps` knob, a tuner's choice) instead, for a kernel without `mma`."""
    return plan_warps(func, hint, fixed).warps


def has_mma(func: ir.Operation) -> bool:
    """Whether tile kernel `func` has a `tile.mma` (the walk stops at the first)."""
    return _walk(func).has_mma


def plan_warps(func: ir.Operation, hint: int, fixed: int = 0, warp_rows: str = "auto") -> WarpPlan:
    """`budget_warps`, whether the blocked layouts may then give each warp whole rows (layouts.blocked's
    `warps_outer`) and the blocks per SM to declare (min_blocks_per_sm), from one walk of the kernel. `warp_rows`
    is the knob: "auto" (_rows_fill_warps), "on" (where the tiles allow it, a loaded row vector or not) or "off"
    (never)."""
    facts = _walk(func)
    warps = fixed if fixed and not facts.has_mma else _budget(facts, hint)
    outer = warp_rows != "off" and _rows_fill_warps(facts, warps, loaded_vectors_too=warp_rows == "on")
    return WarpPlan(warps, outer, min_blocks_per_sm(facts, warps))


def min_blocks_per_sm(facts: _Facts, warps: int) -> int:
    """2 for a kernel without `mma` on MAX_WARPS warps whose largest tile leaves a thread room in half an SM's
    registers (its values plus OVERHEAD), else 0. Without the declaration ptxas may give a 512-thread block up to
    128 registers a thread, and one block per SM then stops loading while it reduces (module docstring). Smaller
    blocks keep two per SM up to 128 registers or more, which BUDGET keeps them under, so they declare nothing."""
    if facts.has_mma or warps < MAX_WARPS:
        return 0
    values = -(-facts.largest // (32 * warps))
    return 2 if values + OVERHEAD <= REGISTER_FILE // (2 * 32 * warps) else 0


@dataclass
class _Facts:
    """What one walk of a tile kernel finds: the 32-bit values of its largest static tile, whether it has an
    `mma` (the walk stops there), the shapes of its static tiles, and whether it loads a row vector."""

    largest: int = 0
    has_mma: bool = False
    shapes: set[tuple[int, ...]] = field(default_factory=set)
    loads_vector: bool = False


def _budget(facts: _Facts, hint: int) -> int:
    vector = max([math.prod(s) for s in facts.shapes if _is_vector(s)], default=0)
    warps = hint
    while not facts.has_mma and warps < MAX_WARPS and (facts.largest > BUDGET * 32 * warps
                                                       or vector > ROW_BUDGET * 32 * warps):
        warps *= 2
    return warps


def _is_vector(shape: tuple[int, ...]) -> bool:
    """A row vector: [N] or [1, N] (one row)."""
    return math.prod(shape[:-1]) == 1


def _rows_fill_warps(facts: _Facts, warps: int, loaded_vectors_too: bool = False) -> bool:
    """No `mma`, some tile with rows, every such tile with at least one row per warp, no row vector ([N] or
    [1, N]) longer than the longest row (every warp holds the row vectors whole), and none loaded from memory.
    Row reductions then stay inside a warp; a [4, 1024] row softmax drops its shared memory and block barriers.

    Why not with a loaded row vector: every warp then loads the whole vector (LayerNorm's w and b: at 4 warps,
    twice the bytes of the rows themselves through L1 per block), where warps that split the rows load a
    quarter each. Measured on the H200 at 32768 x 1024, 4 rows per block, against Triton (docs/tile-lowering.md):
    LayerNorm 0.98x with a warp per row, 1.01x with split rows; RMSNorm 0.99x and 1.00x; softmax, which loads
    no row vector, 1.02x and 0.99x. `loaded_vectors_too` (knob warp_rows=on) lifts that condition."""
    rows = [s for s in facts.shapes if len(s) >= 2 and not _is_vector(s)]
    if facts.loads_vector and not loaded_vectors_too:
        return False
    if facts.has_mma or not rows or any(math.prod(s[:-1]) < warps for s in rows):
        return False
    vectors = [s for s in facts.shapes if s not in rows]
    return all(math.prod(s) <= max(r[-1] for r in rows) for s in vectors)


def _walk(func: ir.Operation) -> _Facts:
    """The facts of `func` (_Facts)."""
    facts = _Facts()

    def visit(op: ir.Operation) -> ir.WalkResult:
        if is_op(op, T.MmaOp):
            facts.has_mma = True
            return ir.WalkResult.INTERRUPT
        for result in op.results:
            if isinstance(result.type, ir.RankedTensorType) and result.type.has_static_shape:
                shape = tuple(result.type.shape)
                facts.shapes.add(shape)
                words = max(1, bit_width(result.type.element_type) // 32)
                facts.largest = max(facts.largest, math.prod(shape) * words)
                if is_op(op, T.LoadOp) and _is_vector(shape):
                    facts.loads_vector = True
        return ir.WalkResult.ADVANCE

    walk(func, visit, ir.WalkOrder.PRE_ORDER)
    return facts
