"""The warps of a tile kernel without tensor-core products, raised when its tiles would crowd the registers.

A tile value lives in registers, spread over the block's threads (layouts.py). The kernel's warp hint
(`num_worker_warps_per_cta`, default 4) suits small tiles; with large ones every thread holds so many values
that the kernel nears the 255-register limit. A row softmax over 4 x 4096 f32 tiles at 4 warps holds 128 values
per thread per tile and took 254 registers. The lowering therefore takes the hint as a floor and doubles the
warps (up to MAX_WARPS) until the largest tile the kernel computes is at most BUDGET 32-bit values per thread.
Kernels with `mma` keep their warps: their layouts and the GEMM plans choose warps themselves.

More warps are not free: a row spread over more warps is reduced through shared memory and a block barrier.
Measured on the H200 against Triton (16384 x 4096 f32, 4 rows per block; docs/tile-lowering.md):
  - softmax at 4, 8 and 16 warps: 0.78x, 0.93x and 0.66x;
  - LayerNorm: 1.00x, 0.85x and 0.75x.
So BUDGET is 64: 4 x 4096 tiles get 8 warps, and 4 x 1024 tiles keep 4. At 32768 x 1024, 8 warps lost 10%
against 4.

A row vector ([N] or [1, N]) is reduced across the warps whatever their number, so for it more warps cost no
extra barrier and only shorten each thread's share: such tiles get at most ROW_BUDGET values per thread. One
row of 4096 f32 then runs on 8 warps (16 values per thread); measured on the H200 at 16384 x 4096, one row per
block, against Triton: softmax 0.98x -> 1.02x, LayerNorm 1.00x and RMSNorm 0.99x unchanged.
"""

from __future__ import annotations

import math

from mlir import ir

from oxide.dialects import tile as T
from oxide.ir.rules import is_op
from oxide.ir.walk import walk
from oxide.passes.conversion.tile_to_simt.context import bit_width

# 32-bit values of one tile per thread: a few such tiles live at once (input, exponentials, output).
BUDGET = 64
# 32-bit values per thread of a row vector (a tile with one row).
ROW_BUDGET = 16
# 512 threads: the block still leaves room for a second block per SM when the kernel needs few registers.
MAX_WARPS = 16


def budget_warps(func: ir.Operation, hint: int, fixed: int = 0) -> int:
    """The warps `func` (a tile kernel) runs with: at least `hint`, more while its largest tile exceeds BUDGET
    values per thread, or its largest row vector ROW_BUDGET (never past MAX_WARPS, never fewer than the hint);
    `fixed` (the `warps` knob, a tuner's choice) instead, for a kernel without `mma`."""
    return plan_warps(func, hint, fixed)[0]


def has_mma(func: ir.Operation) -> bool:
    """Whether tile kernel `func` has a `tile.mma` (the walk stops at the first)."""
    return _walk(func)[1]


def plan_warps(func: ir.Operation, hint: int, fixed: int = 0) -> tuple[int, bool]:
    """`budget_warps`, and whether the blocked layouts may then give each warp whole rows (layouts.blocked's
    `warps_outer`), from one walk of the kernel."""
    facts = _walk(func)
    warps = fixed if fixed and not facts[1] else _budget(facts, hint)
    return warps, _rows_fill_warps(facts, warps)


def _budget(facts: tuple[int, bool, set[tuple[int, ...]]], hint: int) -> int:
    largest, has_mma, shapes = facts
    vector = max([math.prod(s) for s in shapes if math.prod(s[:-1]) == 1], default=0)
    warps = hint
    while not has_mma and warps < MAX_WARPS and (largest > BUDGET * 32 * warps or vector > ROW_BUDGET * 32 * warps):
        warps *= 2
    return warps


def _rows_fill_warps(facts: tuple[int, bool, set[tuple[int, ...]]], warps: int) -> bool:
    """No `mma`, some tile with rows, every such tile with at least one row per warp, and no row vector ([N] or
    [1, N]) longer than the longest row (every warp holds the row vectors whole). Row reductions then stay
    inside a warp; a [4, 1024] row softmax drops its shared memory and block barriers."""
    _, has_mma, shapes = facts
    rows = [s for s in shapes if len(s) >= 2 and math.prod(s[:-1]) > 1]
    if has_mma or not rows or any(math.prod(s[:-1]) < warps for s in rows):
        return False
    vectors = [s for s in shapes if s not in rows]
    return all(math.prod(s) <= max(r[-1] for r in rows) for s in vectors)


def _walk(func: ir.Operation) -> tuple[int, bool, set[tuple[int, ...]]]:
    """The 32-bit values of the kernel's largest static tile, whether it has an `mma` (the walk stops there), and
    the shapes of its static tiles."""
    largest, has_mma = 0, False
    shapes: set[tuple[int, ...]] = set()

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal largest, has_mma
        if is_op(op, T.MmaOp):
            has_mma = True
            return ir.WalkResult.INTERRUPT
        for result in op.results:
            if isinstance(result.type, ir.RankedTensorType) and result.type.has_static_shape:
                shapes.add(tuple(result.type.shape))
                words = max(1, bit_width(result.type.element_type) // 32)
                largest = max(largest, math.prod(result.type.shape) * words)
        return ir.WalkResult.ADVANCE

    walk(func, visit, ir.WalkOrder.PRE_ORDER)
    return largest, has_mma, shapes
