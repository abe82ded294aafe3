"""MappedPartitionMut and `for idx in z.iter_indices()` (docs/tile-language.md, "Persistent kernels"): the tile
IR the loop becomes, the located errors of its misuses, and the host's `Partition.map` checks."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.errors import PartitionError
from oxide.runtime.tile import item_tiles, partition, work_items
from tests.unit.frontends.tile.helpers import check, ir_text, kernel, reject

PARAMS = "mut z: MappedPartitionMut<f32, {[16, 16]}, {[4, 0]}>, x: &Tensor<f32, {[-1, -1]}>"
LOOP = """        let p = x.partition(const_shape![16, 16]);
        for idx in z.iter_indices() {{
            let (i, j) = idx.components();
{body}
        }}"""


def _loop(body: str) -> str:
    return kernel(LOOP.format(body=body), PARAMS)


def test_the_loop_walks_this_blocks_work_items_then_their_tiles():
    text = ir_text(_loop("            z.store(p.load([i, j]), idx);"))
    check(text, r"!tile\.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>", r"tile\.block_id.*axis = \"x\"",
          r"tile\.num_blocks", r"tile\.mapped_work", r"scf\.for", r"tile\.mapped_item_tiles", r"scf\.for",
          r"tile\.mapped_index.*axis = 0", r"tile\.mapped_index.*axis = 1", r"tile\.load", r"tile\.mapped_store")


def test_a_generic_map_and_continue():
    src = kernel(LOOP.format(body="            if i == 0i32 { continue; }\n            z.store(p.load([i, j]), idx);"),
                 "mut z: MappedPartitionMut<f32, {[16, 16]}, MAP>, x: &Tensor<f32, {[-1, -1]}>",
                 generics="<const MAP: [i32; 2]>")
    check(ir_text(src, {"k": [["[2, 1]"]]}), r"array<i64: 2, 1>", r"tile\.mapped_store")


def test_store_needs_an_index_of_the_loop():
    reject(_loop("            z.store(p.load([i, j]), [i, j]);"), 9, 37,
           "stores only at an index of its own `iter_indices()` loop")


def test_store_of_another_mapped_partitions_index():
    src = kernel(LOOP.format(body="            w.store(p.load([i, j]), idx);"),
                 PARAMS + ", mut w: MappedPartitionMut<f32, {[16, 16]}, {[4, 0]}>")
    reject(src, 9, 37, "stores only at an index of its own `iter_indices()` loop")


def test_iter_indices_outside_a_for_loop():
    reject(kernel("        let it = z.iter_indices();", PARAMS), 6, 18, "the iterator of a `for` loop only")


def test_the_index_cannot_leave_the_loop():
    src = kernel("""        let mut keep = 0i32;
        for idx in z.iter_indices() {
            keep = idx;
        }""", PARAMS)
    reject(src, 8, 20, "the new value of `keep` is `PartitionIndex<2>`")


def test_break_is_refused():
    reject(_loop("            break;"), 7, 9, "`break` out of `iter_indices()` is not supported")


def test_a_map_that_streams_no_axis():
    reject(kernel("", "mut z: MappedPartitionMut<f32, {[16, 16]}, {[0, 0]}>"), 5, 53, "at least one must be above 0")


def test_a_map_of_the_wrong_rank():
    reject(kernel("", "mut z: MappedPartitionMut<f32, {[16, 16]}, {[4]}>"), 5, 53, "one tile count per axis")


def test_store_of_the_wrong_tile_shape():
    src = kernel(LOOP.format(body="            z.store(x.partition(const_shape![16, 32]).load([i, j]), idx);"), PARAMS)
    reject(src, 9, 21, "where the tile is `Tile<f32, {[16, 16]}>`")


# Host side ------------------------------------------------------------------------------------------------
def test_work_items_are_clipped_at_the_edge_and_cover_the_grid_once():
    grid, per_item = (5, 3), (2, 0)
    seen = []
    for item in range(work_items(grid, per_item)):
        (r0, rn), (c0, cn) = item_tiles(grid, per_item, item)
        seen += [(r, c) for r in range(r0, r0 + rn) for c in range(c0, c0 + cn)]
    assert work_items(grid, per_item) == 3 and sorted(seen) == [(r, c) for r in range(5) for c in range(3)]


@pytest.mark.parametrize("shape, blocks, message", [
    ((0, 0), 1, "streams no axis"), ((2,), 1, "one tile count"), ((2, -1), 1, "one tile count"),
    ((2, 1), 7, "1 to 6 tile blocks"), ((2, 1), 0, "1 to 6 tile blocks"),
])
def test_map_refusals(shape, blocks, message):
    with pytest.raises(PartitionError, match=message):
        partition(np.zeros((40, 48), np.float32), (16, 16)).map(shape, blocks)
