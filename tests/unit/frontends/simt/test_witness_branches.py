"""Thread index witnesses chosen by an `if`/`match` (branch_results.py): the branch yields the witness as scf.if
results, the lowering splits those results into the witness's parts, and the chosen witness addresses the slice
it is given to (a runtime 2-D witness with that slice's own row width). Also `row_width()` on the emulator."""

from __future__ import annotations

import re

import numpy as np

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_constructs import ir
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_TWO_WIDTHS = """use cuda_device::thread::Runtime2DIndex;
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn pick(a: DisjointSlice<u32, Runtime2DIndex>, mut b: DisjointSlice<u32, Runtime2DIndex>) {
    let row = thread::index_2d_row();
    let col = thread::index_2d_col();
    let width = b.row_width() as usize;
    if let (Some(x), Some(y)) = (thread::index_2d_runtime(&a), thread::index_2d_runtime(&b)) {
        let w = if (row + col) % 2 == 0 { x } else { y };
        if let Some(c) = b.get_mut(w) {
            *c = (row * width + col) as u32 + 100 * a.row_width();
        }
    }
}
"""

_DIVERGING = """use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(n: u32, mut out: DisjointSlice<u32>) {
    let i = thread::index_1d().get() as u32;
    let (w, tag) = match i % 3 {
        0 => (thread::index_1d(), 10u32),
        1 => (thread::index_1d(), 20u32),
        _ => {
            if i > n {
                return;
            }
            (thread::index_1d(), 30u32)
        }
    };
    let maybe = if i < 5 { Some(w) } else { None };
    let chosen = match maybe {
        Some(w) => w,
        None => return,
    };
    if let Some(c) = out.get_mut(chosen) {
        *c = tag + i;
    }
}
"""


def test_a_witness_chosen_by_if_addresses_the_slice_it_is_given_to():
    a = np.zeros((4, 3), np.uint32)
    b = np.full((6, 5), 7, np.uint32)
    launch(oxide.compile(_TWO_WIDTHS, "k.rs").emulator, "pick", (1, 1, 1), (8, 8, 1), [a, b])
    # Every thread inside b's 6x5 grid writes its own cell of b, whichever slice minted the witness.
    assert b.tolist() == (np.arange(30, dtype=np.uint32).reshape(6, 5) + 300).tolist()
    assert not a.any()


def test_the_if_yields_the_witness_as_results():
    assert re.search(r'= scf\.if %\d+ -> \(!simt\.thread_index<"runtime_2d">\)', ir(_TWO_WIDTHS))


def test_witnesses_in_tuples_options_and_diverging_arms():
    out = np.zeros(8, np.uint32)
    launch(oxide.compile(_DIVERGING, "k.rs").emulator, "k", (1, 1, 1), (8, 1, 1), [np.uint32(3), out])
    expected = [0] * 8
    for i in range(5):  # i >= 5: the None arm returns; i % 3 == 2 and i > 3 returns
        if i % 3 == 2 and i > 3:
            continue
        expected[i] = (10, 20, 30)[i % 3] + i
    assert out.tolist() == expected


@needs_ptxas
def test_witness_branches_assemble(tmp_path):
    assemble(_TWO_WIDTHS, tmp_path)
    assemble(_DIVERGING, tmp_path)


_COORD = """use cuda_device::{kernel, thread, DisjointSlice, RowMajorTiles};
#[kernel(launch_context = lc)]
#[launch_contract(domain = 2, coordinates = u32)]
pub fn k(flag: u32, mut m: DisjointSlice<f32, RowMajorTiles<1, 2, 4>>) {
    let c = if flag > 0 { Some(thread::coord_2d_u32(lc)) } else { None };
    let coord = match c {
        Some(c) => c,
        None => return,
    };
    if let Some(mut t) = m.tile_2d32(coord) {
        t.at_const::<0, 1>().write(1.0);
    }
}
"""


def test_an_optional_thread_coordinate_through_branches():
    program = oxide.compile(_COORD, "k.rs").emulator
    for flag, expected in ((1, [0, 1, 0, 1] * 2), (0, [0] * 8)):
        m = np.zeros((2, 4), np.float32)
        launch(program, "k", (1, 1, 1), (2, 2, 1), [np.uint32(flag), m.reshape(-1)])
        assert m.reshape(-1).tolist() == expected


@needs_ptxas
def test_an_optional_thread_coordinate_assembles(tmp_path):
    assemble(_COORD, tmp_path)
