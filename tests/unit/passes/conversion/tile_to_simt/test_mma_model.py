"""A numpy model of the Tensor Core lowering's lane mapping, checked against the PTX ISA's fragment tables.

The model runs the lowering's own planning code (mma_layouts.py: shared staging offsets, ldmatrix lane
addresses, warp positions, the accumulator layout) on ints. ldmatrix and mma.sync are modelled from the PTX
ISA text (the tables below are written from the ISA, not from the lowering): each lane's registers are
gathered from the staged shared memory as ldmatrix would, decoded into A/B/C fragments with the ISA
tables, multiplied, and the per-lane results are put back at the coordinates the accumulator layout gives.
The assembled tile must equal A @ B + C, and every fragment must be the block of A / B it stands for.
"""

from __future__ import annotations

import numpy as np
import pytest

from oxide.ir.rules import LoweringError
from oxide.passes.conversion.tile_to_simt import mma_layouts as ml
from oxide.passes.conversion.tile_to_simt.layouts import (
    VECTOR_BYTES,
    blocked,
    vector_width,
)

WARP = 32


# The PTX ISA's fragment tables (g = lane >> 2, t = lane % 4), as (row, col) of element e of a fragment. -------
def isa_a_16bit(lane: int, e: int) -> tuple[int, int]:
    """m16n8k16 A, .f16/.bf16: elements a0..a7 (two per 32-bit register)."""
    g, t = lane >> 2, lane % 4
    row = g if (e < 2 or 4 <= e < 6) else g + 8
    col = t * 2 + (e & 1) + (8 if e >= 4 else 0)
    return row, col


def isa_b_16bit(lane: int, e: int) -> tuple[int, int]:
    """m16n8k16 B, .f16/.bf16: elements b0..b3 as (k, n)."""
    g, t = lane >> 2, lane % 4
    return t * 2 + (e & 1) + (8 if e >= 2 else 0), g


def isa_a_tf32(lane: int, e: int) -> tuple[int, int]:
    """m16n8k8 A, .tf32: a0..a3."""
    g, t = lane >> 2, lane % 4
    return g + (8 if e in (1, 3) else 0), t + (4 if e >= 2 else 0)


def isa_b_tf32(lane: int, e: int) -> tuple[int, int]:
    """m16n8k8 B, .tf32: b0, b1 as (k, n)."""
    g, t = lane >> 2, lane % 4
    return t + (4 if e == 1 else 0), g


def isa_c(lane: int, e: int) -> tuple[int, int]:
    """m16n8 C/D (f32 or f16): c0..c3."""
    g, t = lane >> 2, lane % 4
    return g + (8 if e >= 2 else 0), t * 2 + (e & 1)


# ldmatrix, as the ISA describes it, over a shared memory of 16-bit words. -------------------------------------
def ldmatrix(smem16: np.ndarray, row_addr: list[int], count: int, trans: bool) -> list[list[int]]:
    """Registers (count per lane, each a pair of 16-bit words low-to-high) of ldmatrix .x{count}; row_addr[l]
    is the 16-bit word address lane l gives (lanes 8i..8i+7: the rows of matrix i)."""
    regs = [[] for _ in range(WARP)]
    for i in range(count):
        rows = [smem16[row_addr[8 * i + r]: row_addr[8 * i + r] + 8] for r in range(8)]
        for lane in range(WARP):
            r, c = lane // 4, 2 * (lane % 4)
            pair = [rows[c][r], rows[c + 1][r]] if trans else [rows[r][c], rows[r][c + 1]]
            regs[lane].append(pair)
    return regs


def stage(plan: ml.MmaPlan, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The staging buffer as 16-bit words, every element written where the lowering writes it."""
    words = plan.shared_bytes // 2
    if plan.instr.in_bytes == 2:
        smem = np.full(words, -1, dtype=np.int64)
        for (r, c), v in np.ndenumerate(a):
            smem[ml.a_element(plan, r, c)] = v
        for (r, c), v in np.ndenumerate(b):
            smem[plan.b_offset // 2 + ml.b_element(plan, r, c)] = v
        return smem
    # 32-bit elements: an element at word offset w is the 16-bit words 2w (value) and 2w + 1 (a tag); the
    # model keeps the value in the low word so a 32-bit register reads back as one element.
    smem = np.full(words, -1, dtype=np.int64)
    for (r, c), v in np.ndenumerate(a):
        w = ml.a_element(plan, r, c)
        smem[2 * w], smem[2 * w + 1] = v, -2
    for (r, c), v in np.ndenumerate(b):
        w = plan.b_offset // 4 + ml.b_element(plan, r, c)
        smem[2 * w], smem[2 * w + 1] = v, -2
    return smem


def warp_fragments(plan: ml.MmaPlan, smem: np.ndarray, warp: int, ks: int):
    """Per fragment row fm, the 16xk A block this warp's lanes hold; per fn, the kx8 B block."""
    wi, wj = ml.warp_position(plan, warp)
    fm_count, fn_count = plan.fragments
    k = plan.instr.k
    a_blocks, b_blocks = [], [None] * fn_count
    elem_words = plan.instr.in_bytes // 2
    for fm in range(fm_count):
        addrs = []
        for lane in range(WARP):
            addr = ml.a_fragment_offset(plan, lane, wi, fm, ks) * elem_words
            assert addr % 8 == 0, "ldmatrix rows are 16-byte aligned"
            addrs.append(addr)
        regs = ldmatrix(smem, addrs, 4, trans=False)
        block = np.full((16, k), -7, dtype=np.int64)
        for lane in range(WARP):
            if plan.instr.inputs == "tf32":
                for e in range(4):
                    block[isa_a_tf32(lane, e)] = regs[lane][e][0]
                    assert regs[lane][e][1] == -2
            else:
                for e in range(8):
                    block[isa_a_16bit(lane, e)] = regs[lane][e // 2][e % 2]
        a_blocks.append(block)
    for fn in range(fn_count):
        block = np.full((k, 8), -7, dtype=np.int64)
        if plan.instr.inputs == "tf32":
            for lane in range(WARP):
                for e in range(2):
                    w = ml.b_tf32_offset(plan, lane, wj, fn, ks, e)
                    block[isa_b_tf32(lane, e)] = smem[2 * w]
            b_blocks[fn] = block
            continue
        if plan.b_pairs and fn % 2:
            continue
        addrs = []
        for lane in range(WARP):
            addr = ml.b_fragment_offset(plan, lane, wj, fn, ks)
            assert addr % 8 == 0, "ldmatrix rows are 16-byte aligned"
            addrs.append(addr)
        count = 4 if plan.b_pairs else 2
        regs = ldmatrix(smem, addrs, count, trans=True)
        for half in range(count // 2):
            block = np.full((k, 8), -7, dtype=np.int64)
            for lane in range(WARP):
                for e in range(4):
                    block[isa_b_16bit(lane, e)] = regs[lane][2 * half + e // 2][e % 2]
            b_blocks[fn + half] = block
    return a_blocks, b_blocks


CASES = [
    # (M, N, K, warps, input, accumulator)
    (128, 128, 32, 4, "bf16", "f32"),
    (128, 128, 64, 8, "bf16", "f32"),
    (64, 64, 32, 4, "bf16", "f32"),
    (64, 64, 64, 4, "f16", "f16"),
    (16, 8, 16, 4, "f16", "f32"),
    (32, 8, 16, 1, "bf16", "f32"),
    (128, 64, 32, 4, "f32", "f32"),
    (64, 64, 32, 8, "f32", "f32"),
]


@pytest.mark.parametrize("m,n,k,warps,inputs,acc", CASES)
def test_fragments_assemble_the_product(m, n, k, warps, inputs, acc):
    rng = np.random.default_rng(m * 7 + n + k + warps)
    a = rng.integers(0, 1000, (m, k))
    b = rng.integers(0, 1000, (k, n))
    c = rng.integers(0, 1000, (m, n))
    plan = ml.plan_mma([m, k], [k, n], inputs, acc, warps)
    layout = plan.layout
    smem = stage(plan, a, b)
    wtm, wtn = plan.warp_tile
    fm_count, fn_count = plan.fragments
    result = np.full((m, n), -1, dtype=np.int64)
    owners = np.zeros((m, n), dtype=np.int64)
    for warp in range(warps):
        wi, wj = ml.warp_position(plan, warp)
        # The accumulator registers of every lane of this warp, from the layout (register j = c + 4 (fn + FN fm)).
        acc_regs = {}
        for lane in range(WARP):
            for j in range(layout.per_thread):
                coords, _ = layout.element(warp * WARP + lane, j)
                acc_regs[lane, j] = c[coords]
        for ks in range(plan.k_steps):
            a_blocks, b_blocks = warp_fragments(plan, smem, warp, ks)
            for fm in range(fm_count):
                rows = slice(wi * wtm + fm * 16, wi * wtm + fm * 16 + 16)
                np.testing.assert_array_equal(a_blocks[fm], a[rows, ks * plan.instr.k:(ks + 1) * plan.instr.k])
                for fn in range(fn_count):
                    cols = slice(wj * wtn + fn * 8, wj * wtn + fn * 8 + 8)
                    np.testing.assert_array_equal(b_blocks[fn], b[ks * plan.instr.k:(ks + 1) * plan.instr.k, cols])
                    cfrag = np.zeros((16, 8), dtype=np.int64)
                    for lane in range(WARP):
                        for e in range(4):
                            cfrag[isa_c(lane, e)] = acc_regs[lane, e + 4 * (fn + fn_count * fm)]
                    d = a_blocks[fm] @ b_blocks[fn] + cfrag
                    for lane in range(WARP):
                        for e in range(4):
                            acc_regs[lane, e + 4 * (fn + fn_count * fm)] = d[isa_c(lane, e)]
        for lane in range(WARP):
            for j in range(layout.per_thread):
                coords, owner = layout.element(warp * WARP + lane, j)
                if owner:
                    result[coords] = acc_regs[lane, j]
                    owners[coords] += 1
    np.testing.assert_array_equal(owners, np.ones((m, n)))
    np.testing.assert_array_equal(result, a @ b + c)


@pytest.mark.parametrize("m,n,k,warps,inputs,acc", CASES)
def test_offsets_are_a_thread_part_plus_a_constant(m, n, k, warps, inputs, acc):
    # mma.py computes the thread part of each offset formula once and adds the fragment's constant part as an
    # immediate; that is only right if every formula splits so.
    plan = ml.plan_mma([m, k], [k, n], inputs, acc, warps)
    formulas = [lambda lane, w, i, ks: ml.a_fragment_offset(plan, lane, w, i, ks)]
    if inputs == "f32":
        formulas += [lambda lane, w, i, ks, r=r: ml.b_tf32_offset(plan, lane, w, i, ks, r) for r in range(2)]
    else:
        formulas.append(lambda lane, w, i, ks: ml.b_fragment_offset(plan, lane, w, i, ks))
    wm, wn = plan.grid
    for f in formulas:
        for lane in range(WARP):
            for w in range(max(wm, wn)):
                for i in range(max(plan.fragments)):
                    for ks in range(plan.k_steps):
                        assert f(lane, w, i, ks) == f(lane, w, 0, 0) + f(0, 0, i, ks) - f(0, 0, 0, 0)


def test_warp_grid_prefers_square_warp_tiles_and_uses_every_warp():
    assert ml.warp_grid(128, 128, 4) == (2, 2)
    assert ml.warp_grid(128, 128, 8) == (2, 4)
    assert ml.warp_grid(64, 64, 4) == (2, 2)
    # A 16x8 accumulator is one fragment: one warp computes it, the others repeat it.
    assert ml.warp_grid(16, 8, 4) == (1, 1)
    assert ml.acc_layout(16, 8, 4).replicated


def test_padded_rows_make_ldmatrix_conflict_free():
    # The eight row addresses of each ldmatrix matrix fall in eight distinct 4-bank groups.
    for m, n, k, inputs in [(128, 128, 32, "bf16"), (128, 128, 64, "bf16"), (64, 64, 16, "f16"), (128, 64, 32, "f32")]:
        plan = ml.plan_mma([m, k], [k, n], inputs, "f32", 4)
        for lane0 in range(0, WARP, 8):
            a_groups = {(ml.a_element(plan, *ml.a_ldmatrix_row(plan, lane, 0, 0, 0)) * plan.instr.in_bytes // 16) % 8
                        for lane in range(lane0, lane0 + 8)}
            assert len(a_groups) == 8
            if inputs != "f32":
                b_groups = {(ml.b_fragment_offset(plan, lane, 0, 0, 0) * 2 // 16) % 8
                            for lane in range(lane0, lane0 + 8)}
                assert len(b_groups) == 8


def test_plans_that_cannot_run_are_refused_with_a_reason():
    with pytest.raises(LoweringError, match="smaller K tile"):
        ml.plan_mma([128, 128], [128, 128], "f32", "f32", 4)
    with pytest.raises(LoweringError, match="multiple of 16"):
        ml.plan_mma([64, 8], [8, 64], "bf16", "f32", 4)


@pytest.mark.parametrize("layout_of", ["blocked", "mma_acc"])
@pytest.mark.parametrize("m,n,k,warps,inputs,acc", CASES)
def test_staging_stores_land_where_the_model_stages(layout_of, m, n, k, warps, inputs, acc):
    # mma.py stores each run of `width` registers at place(thread base) + place(register coords) - place(0, 0)
    # with one vector store; every element must land at its own staging offset. The operands may come in a
    # blocked layout (from loads) or in the accumulator layout (an mma result fed to the next mma).
    plan = ml.plan_mma([m, k], [k, n], inputs, acc, warps)
    places = {"a": ((m, k), lambda r, c: ml.a_element(plan, r, c)),
              "b": ((k, n), lambda r, c: plan.b_base + ml.b_element(plan, r, c))}
    for shape, place in places.values():
        if layout_of == "mma_acc" and (shape[0] < 16 or shape[1] < 8):
            continue
        layout = blocked(shape, warps) if layout_of == "blocked" else ml.acc_layout(*shape, warps)
        width = min(vector_width(layout), VECTOR_BYTES // plan.instr.in_bytes)
        for tid in range(warps * WARP):
            base_coords = [0, 0]
            for bit, target in enumerate(layout.thread_bits):
                if target is not None and (tid >> bit) & 1:
                    base_coords[target.dim] |= 1 << target.bit
            thread = place(*base_coords)
            for j in range(0, layout.per_thread, width):
                start = thread + place(*layout.register_coords(j)) - place(0, 0)
                assert (start * plan.instr.in_bytes) % (width * plan.instr.in_bytes) == 0, "vector stores stay aligned"
                for e in range(width):
                    assert start + e == place(*layout.element(tid, j + e)[0])
