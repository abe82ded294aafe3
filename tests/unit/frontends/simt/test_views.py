"""Check-once views: `element_thread32` on an Index1D slice, `thread_run32` / `tile_thread32` on a
`DisjointSlice<T, LinearTiles<N>>`, and their slots' `read` / `write`."""

from __future__ import annotations

import pytest

from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.simt_interp import run_kernel
from tests.unit.frontends.simt.test_constructs import build, ir

_HEAD = "use cuda_device::{DisjointSlice, LinearTiles, kernel, thread};\n"


def test_thread_runs_cover_their_elements_and_clip_at_the_end():
    src = _HEAD + """#[kernel]
pub fn k(mut data: DisjointSlice<f32, LinearTiles<4>>) {
    let t = thread::index_1d_u32();
    let Some(mut run) = data.thread_run32(t) else { return; };
    for k in 0..run.len() {
        if let Some(mut slot) = run.at(k) {
            let v = slot.read();
            slot.write(v * 2.0 + run.len() as f32);
        }
    }
}"""
    assert '!simt.disjoint<f32, "1d">' in ir(src)  # a LinearTiles slice is a 1-D slice in the IR
    data = [1.0] * 6
    run_kernel(build(src), [data], thread=1)  # thread 1 owns [4, 8): only 4 and 5 exist
    assert data == [1.0, 1.0, 1.0, 1.0, 4.0, 4.0]
    run_kernel(build(src), [data], thread=2)  # past the end: no run
    assert data == [1.0, 1.0, 1.0, 1.0, 4.0, 4.0]


def test_tiles_are_whole_or_none():
    src = _HEAD + """#[kernel]
pub fn k(mut data: DisjointSlice<u32, LinearTiles<2>>) {
    let t = thread::index_1d_u32();
    if let Some(mut tile) = data.tile_thread32(t) {
        let a = tile.at_const::<0>().read();
        tile.at_const::<1>().write(a + 10);
    }
}"""
    data = [1, 2, 3]
    run_kernel(build(src), [data], thread=0)
    assert data == [1, 11, 3]
    run_kernel(build(src), [data], thread=1)  # [2, 4) is not whole: None
    assert data == [1, 11, 3]
    with pytest.raises(OxideError, match="index 2 is out of bounds for a tile of 2 elements"):
        build(src.replace("at_const::<1>", "at_const::<2>"))


def test_element_thread32_and_wrong_spaces():
    src = _HEAD + """#[kernel]
pub fn k(mut values: DisjointSlice<u32>) {
    let index = thread::index_1d_u32();
    if let Some(mut element) = values.element_thread32(index) {
        let value = element.read();
        element.write(value * 3 + 1);
    }
}"""
    values = [5, 6]
    run_kernel(build(src), [values], thread=1)
    assert values == [5, 19]
    with pytest.raises(OxideError, match="needs a `DisjointSlice<T, LinearTiles<N>>`"):
        build(src.replace("element_thread32", "thread_run32"))
    with pytest.raises(OxideError, match="mismatched index spaces"):
        build(_HEAD + "#[kernel]\npub fn k(mut d: DisjointSlice<u32, LinearTiles<2>>) {\n"
                      "    if let Some(e) = d.get_mut(thread::index_1d()) { *e = 1; }\n}")


def test_lifetime_arguments_are_ignored_in_types():
    src = _HEAD + """#[device]
fn bump<'a>(s: &mut DisjointSlice<'a, u32>) {
    if let Some(e) = s.get_mut(thread::index_1d()) { *e += 1; }
}
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) { bump(&mut out); }"""
    values = [1, 2]
    run_kernel(build(src), [values], thread=1)
    assert values == [1, 3]
