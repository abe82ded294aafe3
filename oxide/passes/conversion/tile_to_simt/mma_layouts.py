"""The Tensor Core side of the tile lowering, as pure planning: the mma instruction for an element type pair,
the warp grid over an MxN accumulator, the accumulator layout (a bit layout, layouts.py), the shared-memory
staging of the operands, and the ldmatrix lane addresses.

Nothing here builds IR. The address formulas take `lane`, the warp's row and column in the warp grid, and the
fragment indices, and use only `+`, `*`, `//` and `%` by powers of two: mma.py evaluates them on i32 values,
the tests on Python ints, so the model the tests check is the code the lowering runs.

Fragments (PTX ISA, "Matrix Fragments for mma.m16n8k16 / m16n8k8"), with g = lane / 4, t = lane % 4:
- C/D (16x8, f32 or f16): c0, c1 at (g, 2t + {0, 1}); c2, c3 at (g + 8, 2t + {0, 1}).
- A 16x16 f16/bf16 (4 regs of 2): (g, 2t..), (g + 8, 2t..), (g, 2t + 8..), (g + 8, 2t + 8..).
- B 16x8 f16/bf16 (2 regs of 2): (k = 2t + {0, 1}, n = g), (k = 2t + 8 + {0, 1}, n = g).
- A 16x8 tf32: (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4); B 8x8 tf32: (k = t, n = g), (k = t + 4, n = g).
ldmatrix .x4 reads four 8x8 matrices of 16-bit elements: lanes 8i..8i+7 give the row addresses of matrix i,
and register i of lane l holds row l / 4, elements 2 (l % 4) + {0, 1} of matrix i (with .trans, of its
transpose). So one .x4 load of a 16x16 A block gives the A fragment, one .x4.trans load of a 16x16 block of a
row-major B gives the B fragments of two n8 columns, and for tf32 one .x4 load of a 16x8 f32 A block gives
the A fragment (a 16-byte row is four f32).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oxide.ir.rules import LoweringError
from oxide.passes.conversion.tile_to_simt.layouts import Bit, Layout

MMA_M = 16
MMA_N = 8
# mma.sync with bf16/tf32 multiplicands and ldmatrix .trans need sm_80.
MIN_TENSOR_CORE_SM = 80
# Shared rows are padded by 16 bytes: the eight 16-byte rows one ldmatrix matrix reads then start in eight
# different 4-bank groups whenever the unpadded row is a multiple of 128 bytes (the tile dims are powers of two).
ROW_PAD_BYTES = 16
# tf32 B fragments are read with scalar loads (ldmatrix moves 16-bit elements, and .trans would split the f32s):
# lanes read B[k0 + t][n0 + g], so a row stride of 8 (mod 32) words puts the 32 lanes in 32 banks.
TF32_B_PAD_WORDS = 8
# Static shared memory one block may declare.
MAX_STATIC_SHARED = 48 * 1024


@dataclass(frozen=True)
class MmaInstr:
    """The mma.sync shape one tile.mma runs: `inputs` is the PTX multiplicand type (f32 inputs run as tf32)."""

    inputs: str
    acc: str
    k: int

    @property
    def in_bytes(self) -> int:
        """Bytes of one input element in shared memory (tf32 keeps its 32-bit container)."""
        return 4 if self.inputs == "tf32" else 2

    @property
    def acc_bytes(self) -> int:
        """Bytes of one accumulator element."""
        return 4 if self.acc == "f32" else 2


def instruction_for(in_elem: str, acc_elem: str) -> MmaInstr:
    """The mma.sync for a tile.mma of `in_elem` inputs accumulating in `acc_elem` (the verifier's pairs)."""
    if in_elem in ("f16", "bf16") and acc_elem == "f32":
        return MmaInstr(in_elem, "f32", 16)
    if in_elem == "f16" and acc_elem == "f16":
        return MmaInstr("f16", "f16", 16)
    if in_elem == "f32" and acc_elem == "f32":
        return MmaInstr("tf32", "f32", 8)
    if in_elem in ("f8E4M3FN", "f8E5M2") and acc_elem == "f32":
        # fp8 tiles are staged as f16 (every fp8 value is one) for the f16 mma.sync (mma.py).
        return MmaInstr("f16", "f32", 16)
    raise LoweringError(f"mma does not take {in_elem} inputs with an {acc_elem} accumulator")


def tensor_core_shape(sm: int, m: int, n: int, k: int, in_elem: str, acc_elem: str) -> bool:
    """Whether a tile.mma of a: MxK, b: KxN runs on the Tensor Cores (mma.sync): the chip has them (sm_80 or
    newer) and the product is whole fragments (M >= 16, N >= 8, K >= the instruction's K; tile dims are powers
    of two, so they then divide evenly). Every other product runs as FMA loops on the accumulator's own
    layout (mma_fma.py), which needs no padded fragment layout and no layout conversion; docs/tile-mma.md
    says what that costs."""
    return sm >= MIN_TENSOR_CORE_SM and m >= MMA_M and n >= MMA_N and k >= instruction_for(in_elem, acc_elem).k


def _log2(n: int) -> int:
    return n.bit_length() - 1


def warp_grid(m: int, n: int, warps: int) -> tuple[int, int]:
    """(WM, WN): the warps along M and N. Each warp tile is at least one 16x8 fragment; as many warps as
    possible get work (the rest repeat the first ones' work), then the warp tile is as square as possible,
    which minimises the ldmatrix loads per mma (wtm / 16 A loads and wtn / 16 B loads per 16-deep step)."""
    best: tuple[tuple[int, int, int], tuple[int, int]] | None = None
    wm = 1
    while wm <= warps:
        wn = 1
        while wm * wn <= warps:
            if m // wm >= MMA_M and n // wn >= MMA_N:
                # Ties go to the taller warp tile: its B loads (x4.trans, two n8 fragments each) stay full.
                key = (-(wm * wn), m // wm + n // wn, -(m // wm))
                if best is None or key < best[0]:
                    best = (key, (wm, wn))
            wn *= 2
        wm *= 2
    if best is None:
        raise LoweringError(f"an mma accumulator of {m}x{n} is smaller than one 16x8 Tensor Core fragment")
    return best[1]


def acc_layout(m: int, n: int, warps: int) -> Layout:
    """The mma accumulator layout of an MxN tile over `warps` warps (WM x WN warp grid, warp tiles of 16x8
    fragments). Register j = c + 4 * (fn + FN * fm) of a thread holds element c of fragment (fm, fn) of its
    warp tile; warps beyond WM * WN repeat the first ones (replicated, owner = the first)."""
    wm, wn = warp_grid(m, n, warps)
    wtm, wtn = m // wm, n // wn
    registers = (Bit(1, 0), Bit(0, 3), *(Bit(1, k) for k in range(3, _log2(wtn))),
                 *(Bit(0, k) for k in range(4, _log2(wtm))))
    lanes = (Bit(1, 1), Bit(1, 2), Bit(0, 0), Bit(0, 1), Bit(0, 2))
    warp_bits: list[Bit | None] = [Bit(1, k) for k in range(_log2(wtn), _log2(n))]
    warp_bits += [Bit(0, k) for k in range(_log2(wtm), _log2(m))]
    warp_bits += [None] * (_log2(warps) - len(warp_bits))
    return Layout((m, n), registers, lanes, tuple(warp_bits), kind="mma_acc")


@dataclass(frozen=True)
class MmaPlan:
    """Everything static about one tile.mma: shapes, instruction, warp grid and shared-memory staging.

    Shared memory holds A (M rows of K, row stride `a_stride` elements) at byte 0 and B (K rows of N, row
    stride `b_stride`) at byte `b_offset`; elements are the input type (tf32 as its f32 bit pattern)."""

    m: int
    n: int
    k: int
    warps: int
    instr: MmaInstr

    @property
    def grid(self) -> tuple[int, int]:
        """(WM, WN), the warp grid."""
        return warp_grid(self.m, self.n, self.warps)

    @property
    def warp_tile(self) -> tuple[int, int]:
        """(rows, columns) of the accumulator one warp computes."""
        wm, wn = self.grid
        return self.m // wm, self.n // wn

    @property
    def fragments(self) -> tuple[int, int]:
        """(FM, FN): 16x8 fragments per warp tile along M and N."""
        wtm, wtn = self.warp_tile
        return wtm // MMA_M, wtn // MMA_N

    @property
    def k_steps(self) -> int:
        """mma.sync instructions along K per fragment."""
        return self.k // self.instr.k

    @property
    def layout(self) -> Layout:
        """The accumulator (and result) layout."""
        return acc_layout(self.m, self.n, self.warps)

    @property
    def a_stride(self) -> int:
        """Elements per shared row of A (K plus 16 bytes of padding)."""
        return self.k + ROW_PAD_BYTES // self.instr.in_bytes

    @property
    def b_stride(self) -> int:
        """Elements per shared row of B (N plus padding)."""
        pad = TF32_B_PAD_WORDS if self.instr.inputs == "tf32" else ROW_PAD_BYTES // self.instr.in_bytes
        return self.n + pad

    @property
    def b_offset(self) -> int:
        """Byte offset of B in the staging buffer (16-byte aligned: ldmatrix rows are 16-byte aligned)."""
        size = self.m * self.a_stride * self.instr.in_bytes
        return (size + 15) // 16 * 16

    @property
    def b_base(self) -> int:
        """Element offset of B in the staging buffer."""
        return self.b_offset // self.instr.in_bytes

    @property
    def shared_bytes(self) -> int:
        """Bytes of shared memory the staging buffer needs."""
        return self.b_offset + self.k * self.b_stride * self.instr.in_bytes

    @property
    def b_pairs(self) -> bool:
        """Whether B fragments load two n8 columns at a time (ldmatrix .x4.trans) rather than one (.x2.trans)."""
        return self.fragments[1] % 2 == 0


def plan_mma(a_shape: list[int], b_shape: list[int], in_elem: str, acc_elem: str, warps: int,
             shared_limit: int = MAX_STATIC_SHARED) -> MmaPlan:
    """The plan of a tile.mma of a: MxK and b: KxN tiles over `warps` warps; LoweringError if it cannot run.
    `shared_limit` bounds the staging: 48 KiB where it must be a static array, the chip's opt-in limit where
    the kernel's shared-memory plan may move it into dynamic shared memory (shared_plan.py)."""
    m, k = a_shape
    n = b_shape[1]
    instr = instruction_for(in_elem, acc_elem)
    if k % instr.k:
        raise LoweringError(f"mma's K ({k}) must be a multiple of {instr.k} for {in_elem} inputs")
    warp_grid(m, n, warps)  # raises for an accumulator smaller than one fragment
    plan = MmaPlan(m, n, k, warps, instr)
    if plan.shared_bytes > shared_limit:
        raise LoweringError(f"mma of {m}x{k} by {k}x{n} {in_elem} tiles stages {plan.shared_bytes} bytes in shared "
                           f"memory, more than the {shared_limit} a block may use; use a smaller K tile")
    return plan


# Address formulas (ints in the tests, i32 values in mma.py) -------------------------------------------------
def a_element(plan: MmaPlan, row: Any, col: Any) -> Any:
    """Element offset of A[row][col] in the staging buffer's A region."""
    return row * plan.a_stride + col


def b_element(plan: MmaPlan, row: Any, col: Any) -> Any:
    """Element offset of B[row][col] in the staging buffer's B region."""
    return row * plan.b_stride + col


def a_ldmatrix_row(plan: MmaPlan, lane: Any, warp_row: Any, fm: int, ks: int) -> tuple[Any, Any]:
    """The A (row, col) whose 16-byte row `lane` points ldmatrix .x4 at, for fragment row fm and K step ks:
    lanes 0-15 give rows 0-15 of the left half (matrices 0 and 1), lanes 16-31 the right half (2 and 3)."""
    wtm = plan.warp_tile[0]
    per_row = 16 // plan.instr.in_bytes
    return warp_row * wtm + fm * MMA_M + lane % 16, ks * plan.instr.k + (lane // 16) * per_row


def b_ldmatrix_row(plan: MmaPlan, lane: Any, warp_col: Any, fn: int, ks: int) -> tuple[Any, Any]:
    """The B (k, n) whose 16-byte row `lane` points ldmatrix .trans at, for the n8 fragment fn (the first of
    a pair with .x4) and K step ks: lanes 0-15 give k rows 0-15 of columns fn, lanes 16-31 of fn + 1."""
    wtn = plan.warp_tile[1]
    col = warp_col * wtn + fn * MMA_N
    if plan.b_pairs:
        col = col + (lane // 16) * MMA_N
    return ks * plan.instr.k + lane % 16, col


def b_tf32_elements(plan: MmaPlan, lane: Any, warp_col: Any, fn: int, ks: int) -> list[tuple[Any, Any]]:
    """The B (k, n) of the two tf32 B registers of `lane` for fragment fn and K step ks."""
    n = warp_col * plan.warp_tile[1] + fn * MMA_N + lane // 4
    k = ks * plan.instr.k + lane % 4
    return [(k, n), (k + 4, n)]


def a_fragment_offset(plan: MmaPlan, lane: Any, warp_row: Any, fm: int, ks: int) -> Any:
    """Element offset in the staging buffer of the row `lane` gives ldmatrix for A fragment row fm, K step ks."""
    return a_element(plan, *a_ldmatrix_row(plan, lane, warp_row, fm, ks))


def b_fragment_offset(plan: MmaPlan, lane: Any, warp_col: Any, fn: int, ks: int) -> Any:
    """Element offset in the staging buffer of the row `lane` gives ldmatrix .trans for B fragment fn, step ks."""
    return plan.b_base + b_element(plan, *b_ldmatrix_row(plan, lane, warp_col, fn, ks))


def b_tf32_offset(plan: MmaPlan, lane: Any, warp_col: Any, fn: int, ks: int, register: int) -> Any:
    """Element offset in the staging buffer of tf32 B register `register` of `lane` for fragment fn, step ks."""
    return plan.b_base + b_element(plan, *b_tf32_elements(plan, lane, warp_col, fn, ks)[register])


def warp_position(plan: MmaPlan, warp: Any) -> tuple[Any, Any]:
    """(row, column) of a warp in the warp grid, as the accumulator layout's warp bits say (low bits along N);
    warps beyond the grid repeat it."""
    wm, wn = plan.grid
    return (warp // wn) % wm, warp % wn
