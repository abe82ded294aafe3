"""The flash-attention K/V loop (docs/tile-attention.md, "The sm_90a path"), as a pure match on the tile IR: an
`scf.for` at the kernel's top level whose body holds exactly two `tile.mma`s,

```
%s = tile.mma(%q, %kt, %zero)   // scores: q [BM, D] defined before the loop, kt [D, BN]
...                             // the online softmax
%p = arith.truncf ...           // the probabilities, [BM, BN], as bf16 or f16
%o = tile.mma(%p, %v, %scaled)  // values: v [BN, D], into the rescaled accumulator
```

in that order, with 16-bit inputs, f32 accumulators and tiles wgmma takes: BM a multiple of 64 split into whole
64-row blocks over the kernel's warpgroups, D and BN multiples of 64 up to 256.

On sm_90a both products then run on wgmma from 128-byte-swizzled shared memory (attention_wgmma.py) instead of
mma.sync, with the accumulators (and so the softmax between them) in the wgmma accumulator layout. The match
is a pure function of the tile IR and the Target, so the same source keeps mma.sync on every other chip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, gpu, scf

from oxide.dialects import tile as T
from oxide.ir.rules import is_op
from oxide.passes.conversion.tile_to_simt.layouts import Bit, Layout
from oxide.passes.conversion.tile_to_simt.warpgroups import WGMMA_M, WarpgroupRows
from oxide.target import Target

# One 128-byte swizzle row of a 16-bit element type: the K (or N) width of one staged box.
SWIZZLE_ELEMS = 64
MAX_N = 256
INPUTS = ("bf16", "f16")
# The kind of a wgmma accumulator layout (and of the layouts reductions and broadcasts derive from it).
WGMMA_KIND = "wgmma"


@dataclass(frozen=True)
class AttentionPlan(WarpgroupRows):
    """A matched attention loop on sm_90a: BM query rows, BN keys per step, head dim D, the kernel's warps (whole
    warpgroups, each owning BM / 64 / warpgroups 64-row blocks), and whether `op` is the scores product (the
    first) or the values product (the second)."""

    bm: int
    bn: int
    d: int
    warps: int
    elem: str
    scores: bool

    @property
    def n(self) -> int:
        """Columns of this product's accumulator: BN for the scores, D for the values."""
        return self.bn if self.scores else self.d

    @property
    def k(self) -> int:
        """The depth of this product: D for the scores, BN for the values."""
        return self.d if self.scores else self.bn

    @property
    def layout(self) -> Layout:
        """This product's accumulator layout: wgmma's D fragment (the m16n8 C layout per warp, repeated along N),
        a warpgroup's 64-row blocks in the high register bits, the warpgroups over the rest of the rows (the
        GEMM's accumulator layout, docs/tile-hopper.md)."""
        return accumulator_layout(self.bm, self.n, self.blocks_per_group, self.warpgroups)


def accumulator_layout(bm: int, n: int, blocks_per_group: int, warpgroups: int) -> Layout:
    """The wgmma accumulator layout of a [bm, n] f32 tile (see AttentionPlan.layout)."""
    col_bits = n.bit_length() - 1
    block_bits = blocks_per_group.bit_length() - 1
    group_bits = warpgroups.bit_length() - 1
    registers = (Bit(1, 0), Bit(0, 3), *(Bit(1, b) for b in range(3, col_bits)),
                 *(Bit(0, 6 + b) for b in range(block_bits)))
    lanes = (Bit(1, 1), Bit(1, 2), Bit(0, 0), Bit(0, 1), Bit(0, 2))
    warps = (Bit(0, 4), Bit(0, 5), *(Bit(0, 6 + block_bits + b) for b in range(group_bits)))
    return Layout((bm, n), registers, lanes, warps, WGMMA_KIND)


def wgmma_row_broadcast(src: Layout, dst: list[int]) -> Layout | None:
    """For a [M, 1] tile in a layout derived from a wgmma accumulator (a row reduction of one: its column lanes
    replicated), the layout of its broadcast to [M, N] that is the wgmma accumulator layout of [M, N], so that
    the softmax's `s - m` and `acc * alpha` need no conversion; None for any other tile."""
    if src.kind != WGMMA_KIND or len(dst) != 2 or list(src.shape) != [dst[0], 1] or dst[1] < 8:
        return None
    if src.lanes[:2] != (None, None) or not src.registers or src.registers[0] != Bit(0, 3):
        return None
    columns = tuple(Bit(1, b) for b in range(3, dst[1].bit_length() - 1))
    registers = (Bit(1, 0), src.registers[0], *columns, *src.registers[1:])
    try:
        return Layout(tuple(dst), registers, (Bit(1, 1), Bit(1, 2), *src.lanes[2:]), src.warps, WGMMA_KIND)
    except ValueError:  # a layout that does not cover [M, N] exactly once: not one derived from wgmma's
        return None


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _shape(value: ir.Value) -> list[int]:
    return list(T.shape_of(value.type))


def _inside(value: ir.Value, body: ir.Block) -> bool:
    """Whether `value` is defined in `body` (an op of it or one of its arguments)."""
    if isinstance(value, ir.BlockArgument):
        return value.owner == body
    return value.owner.operation.block == body


def _mmas(loop: ir.Operation) -> list[ir.Operation]:
    body = loop.regions[0].blocks[0]
    return [o.operation for o in body.operations if is_op(o.operation, T.MmaOp)]


def _tiles_fit(bm: int, bn: int, d: int, warps: int) -> bool:
    """Whether wgmma and 128-byte swizzled staging take these tiles with these warps."""
    if warps % 4 or not _power_of_two(warps // 4) or bm % WGMMA_M or not _power_of_two(bm // WGMMA_M):
        return False
    if (bm // WGMMA_M) % (warps // 4):
        return False
    return all(x % SWIZZLE_ELEMS == 0 and x <= MAX_N and _power_of_two(x) for x in (bn, d))


def match_attention(op: Any, target: Target, warps: int) -> AttentionPlan | None:
    """The plan of the tile.mma `op` when it is one of the two products of an attention loop the sm_90a path
    takes (module docstring), else None."""
    if target.tensor_cores != "wgmma":
        return None
    loop = op.operation.parent
    if loop is None or not is_op(loop, scf.ForOp) or loop.parent is None or not is_op(loop.parent, gpu.GPUFuncOp):
        return None
    mmas = _mmas(loop)
    if len(mmas) != 2 or op.operation not in mmas:
        return None
    scores, values = mmas
    body = loop.regions[0].blocks[0]
    q, kt, _ = list(scores.operands)
    p, v, _ = list(values.operands)
    if _inside(q, body) or isinstance(p, ir.BlockArgument) or not is_op(p.owner.operation, arith.TruncFOp):
        return None
    elems = {str(T.elem_of(x.type)) for x in (q, kt, p, v)}
    accs = {str(T.elem_of(m.results[0].type)) for m in mmas}
    if len(elems) != 1 or not elems <= set(INPUTS) or accs != {"f32"}:
        return None
    (bm, d), (d2, bn), (bm2, bn2), (bn3, d3) = _shape(q), _shape(kt), _shape(p), _shape(v)
    if (d2, bm2, bn2, bn3, d3) != (d, bm, bn, bn, d) or not _tiles_fit(bm, bn, d, warps):
        return None
    return AttentionPlan(bm, bn, d, warps, elems.pop(), op.operation == scores)
