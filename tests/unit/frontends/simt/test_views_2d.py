"""2-D tile views (calls/tile_views.py): `DisjointSlice<T, RowMajorTiles<R, C, S>>::tile_2d32(coord)` and
`RuntimeRowMajorTiles<R, C>::tile_2d32_rt(coord)` with `thread::coord_2d_u32`: thread (row, col) gets the R x C
tile at (row*R, col*C) only when all of it lies inside the slice and its columns inside one row of S (or the
runtime row width) elements; `at_const::<r, c>()` reads and writes it. (Rejections: rejections/tile_2d_*.rs.)"""

from __future__ import annotations

import numpy as np

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_SRC = """use cuda_device::{kernel, thread, DisjointSlice, RowMajorTiles, RuntimeRowMajorTiles};
#[kernel(launch_context = lc)]
#[launch_contract(domain = 2, coordinates = u32, block = (4, 4, 1))]
pub fn fixed(mut m: DisjointSlice<f32, RowMajorTiles<2, 3, 8>>) {
    let coord = thread::coord_2d_u32(lc);
    let tag = (coord.row() * 10 + coord.col()) as f32;
    if let Some(mut t) = m.tile_2d32(coord) {
        let a = t.at_const::<0, 0>().read();
        t.at_const::<0, 0>().write(a + tag);
        t.at_const::<0, 2>().write(tag + 0.5);
        t.at_const::<1, 1>().write(tag + 0.25);
    }
}
#[kernel(launch_context = lc)]
#[launch_contract(domain = 2, coordinates = u32, block = (4, 4, 1))]
pub fn runtime(mut m: DisjointSlice<u32, RuntimeRowMajorTiles<1, 2>>) {
    let coord = thread::coord_2d_u32(lc);
    let w = m.row_width();
    let (r, c) = (coord.row(), coord.col());
    if let Some(mut t) = m.tile_2d32_rt(coord) {
        t.at_const::<0, 0>().write(r * 100 + c * 2 + w * 1000);
        t.at_const::<0, 1>().write(r * 100 + c * 2 + 1);
    }
}
"""


def test_static_row_major_tiles_cover_only_whole_tiles():
    m = np.full((5, 8), -1, np.float32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "fixed", (1, 1, 1), (4, 4, 1), [m.reshape(-1)])
    expected = np.full((5, 8), -1, np.float32)
    # 2x3 tiles in rows of 8: columns 0..5 (tile columns 0, 1), rows 0..3 (tile rows 0, 1); row 4 is a partial tile.
    for row in range(2):
        for col in range(2):
            tag = row * 10 + col
            r0, c0 = 2 * row, 3 * col
            expected[r0, c0] = -1 + tag
            expected[r0, c0 + 2] = tag + 0.5
            expected[r0 + 1, c0 + 1] = tag + 0.25
    assert m.tolist() == expected.tolist()


def test_runtime_row_major_tiles_use_the_slice_row_width():
    m = np.zeros((3, 7), np.uint32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "runtime", (1, 1, 1), (4, 4, 1), [m])
    expected = np.zeros((3, 7), np.uint32)
    for r in range(3):
        for c in range(3):  # 1x2 tiles in rows of 7: tile columns 0..2, column 6 belongs to no whole tile
            expected[r, 2 * c] = r * 100 + c * 2 + 7000
            expected[r, 2 * c + 1] = r * 100 + c * 2 + 1
    assert m.tolist() == expected.tolist()


@needs_ptxas
def test_tile_views_assemble(tmp_path):
    assemble(_SRC, tmp_path)
