"""The methods of the places and views in memory (calls/disjoint_views.py, tile_views.py, references.py,
slice_splits.py, local_pointer_methods.py) are registered handlers like every other method: one per (receiver
class, name), guards where a receiver's kind decides, and a catch-all that keeps each view's own error for a
method it does not have. A reference to a scalar that no handler of its class takes is dereferenced."""

import pytest

from oxide.dialects.context import make_context
from oxide.diagnostics import OxideError
from oxide.frontends.simt import types as T
from oxide.frontends.simt.compile import compile_rust

with make_context():
    from oxide.frontends.simt.calls import entry, registry

_U32 = T.PRIMITIVES["u32"]


def _ir(src: str) -> str:
    return str(compile_rust(src, "k.rs", make_context()).module)


def test_views_are_keyed_methods_and_no_table_of_their_own():
    assert not hasattr(entry, "VIEWS")
    for cls, name in [(T.Disjoint, "element_thread32"), (T.Disjoint, "tile_2d32_rt"), (T.ThreadRun, "at"),
                      (T.GridRuns, "next_run"), (T.Tile2D, "at_const"), (T.ElemRef, "write"), (T.PlaceRef, "get_mut"),
                      (T.Slice, "split_at"), (T.PlaceRef, "as_chunks"), (T.LocalPtr, "wrapping_add"),
                      (T.CellPtr, "read")]:
        assert (cls.__name__, name) in registry.method_keys(), (cls, name)


def test_a_views_catch_all_hides_the_methods_of_every_type():
    run, cell = T.ThreadRun(T.F32, 4, False), T.CellPtr(_U32, True)
    assert registry.find_method(run, "into") is registry.find_method(run, "no_such_method")
    assert registry.find_method(cell, "into") is registry.find_method(cell, "add")
    assert registry.find_method(T.Disjoint(T.F32, "1d"), "no_such_method") is None


_RUN = """use cuda_device::{DisjointSlice, LinearTiles, kernel, thread};
#[kernel]
pub fn k(mut data: DisjointSlice<f32, LinearTiles<4>>) {
    let t = thread::index_1d_u32();
    if let Some(run) = data.thread_run32(t) {
        CALL;
    }
}
"""


@pytest.mark.parametrize("call, message", [
    ("run.iter()", "no method named `iter` found for `ThreadRunMut32<f32, 4>`"),
    ("run.len(1)", "no method named `len` found for `ThreadRunMut32<f32, 4>`"),
    ("run.at_const::<0>()", "`at_const` needs a whole tile"),
])
def test_a_run_keeps_its_errors(call, message):
    with pytest.raises(OxideError, match=message):
        _ir(_RUN.replace("CALL", call))


def test_a_slot_of_a_scalar_has_its_own_methods_and_the_scalars_after_a_dereference():
    src = ("use cuda_device::{DisjointSlice, kernel, thread};\n#[kernel]\n"
           "pub fn k(mut out: DisjointSlice<u32>) {\n    if let Some(slot) = out.get_mut(thread::index_1d()) {\n"
           "        let v = slot.get();\n        slot.write(v.wrapping_add(1));\n"
           "        let w = slot.wrapping_mul(3);\n        slot.write(w);\n    }\n}\n")
    ir = _ir(src)
    assert ir.count("simt.ref_load") == 2 and ir.count("simt.ref_store") == 2
    with pytest.raises(OxideError, match="no method named `split_at` found for `u32` in device code"):
        _ir(src.replace("slot.wrapping_mul(3)", "slot.split_at(1)"))
