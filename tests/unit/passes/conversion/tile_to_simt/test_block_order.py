"""The sm_90a attention kernel reads its tile ids with the grid's y (query blocks) fastest, last first
(block_order.py), so that the blocks running together share one head's K and V in L2 and a causal kernel's
longest blocks start first; the emulator tests of test_attention_wgmma.py
launch it over a 2 x 3 grid with an output of NaNs, so a remap that missed or repeated a tile fails there."""

from __future__ import annotations

import itertools

from mlir import ir

from tests.unit.passes.conversion.tile_to_simt.harness import context
from tests.unit.passes.conversion.tile_to_simt.test_attention_wgmma import _lowered


def _model(bx: int, by: int, bz: int, gx: int, gy: int) -> tuple[int, int, int]:
    """block_order.head_major in Python."""
    linear = bx + gx * by
    return (linear // gy, gy - 1 - linear % gy, bz)


def test_the_remap_is_a_bijection_with_the_query_blocks_of_one_head_adjacent_last_first():
    gx, gy = 5, 3
    order = [_model(bx, by, 0, gx, gy) for by, bx in itertools.product(range(gy), range(gx))]  # launch order
    assert sorted(order) == sorted(itertools.product(range(gx), range(gy), [0]))
    assert order[:4] == [(0, 2, 0), (0, 1, 0), (0, 0, 0), (1, 2, 0)]


def test_only_the_tma_attention_kernel_remaps_its_block_ids():
    with context(), ir.Location.unknown():
        tma = str(_lowered("attention", 128, 64, 64, "sm_90a"))
        staged = str(_lowered("attention", 128, 64, 64, "sm_90a", staged=True))
    grid_y = 'simt.grid_dim"() {dim = #simt.dim<"y">}'
    assert grid_y in tma and grid_y not in staged
    assert staged.count("arith.remui") < tma.count("arith.remui")
