"""Comments and doc comments next to `#[cutile::module]` and `#[cutile::entry]` change nothing: the attributes
still belong to their item (issue 15: a comment used to drop the entry, or the whole module)."""

from __future__ import annotations

import pytest

from tests.unit.frontends.tile.helpers import build, ir_text, kernel


@pytest.mark.parametrize("between", ["// note", "/* note */", "\n    /// note\n", "/** note */",
                                     "\n    // one\n    /* two */\n"])
def test_a_comment_after_the_entry_keeps_the_entry(between):
    result = build(kernel("", entry=f"#[cutile::entry] {between}"))
    assert [k.name for k in result.kernels] == ["k"]


def test_a_comment_after_the_entry_keeps_its_options():
    entry = "#[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 8)))] // eight warps"
    assert "tile.warps = 8 : i32" in ir_text(kernel("", entry=entry))


def test_comments_inside_the_entry_are_not_part_of_its_arguments():
    entry = ("#[cutile::entry(optimization_hints = (sm_90 = ( // the hint\n"
             "    num_worker_warps_per_cta = /* eight */ 8)))]")
    assert "tile.warps = 8 : i32" in ir_text(kernel("", entry=entry))


def test_a_comment_after_the_module_attribute_keeps_the_module():
    src = kernel("").replace("#[cutile::module]\n", "#[cutile::module] // kernels\n/// doc\n", 1)
    assert [k.name for k in build(src).kernels] == ["k"]


def test_a_commented_entry_next_to_another_entry_is_kept():
    src = kernel("", entry="#[cutile::entry] // first", extra="    #[cutile::entry]\n"
                 "    fn k2(z: &mut Tensor<f32, {[128]}>) {}")
    assert [k.name for k in build(src).kernels] == ["k", "k2"]


def test_a_cutile_module_in_a_comment_or_string_does_not_make_a_tile_source():
    import oxide
    from oxide.frontends.tile import is_tile_source

    simt = """// Ported from a #[cutile::module] kernel.
/* #[cutile::module] */
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = 1; }
}
"""
    assert not is_tile_source(simt)
    assert oxide.compile(simt, "k.rs").kernels[0].name == "k"
    assert is_tile_source("#[cutile::module] // the tile kernels\nmod m {}\n")
