"""An `if` whose branches yield aggregates holding pointers into different address spaces (`(p_global, n)` and
`(ptr::null(), 0)`): the value's pointers become generic ones (value_if / _pointer_space_union). The emulator
has no generic addresses, so the check is the IR and that ptxas assembles the PTX."""

from __future__ import annotations

import re

from tests.unit.frontends.simt.test_constructs import ir
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_SRC = """use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub unsafe fn pick(a: *const f32, n: u32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get() as u32;
    let (p, m): (*const f32, u32) = if i < n { (a.add(i as usize), 1) } else { (core::ptr::null(), 0) };
    let v = if m == 1 { unsafe { *p } } else { -1.0 };
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
"""


def test_the_pointer_is_read_back_as_a_generic_pointer():
    text = ir(_SRC)
    assert '"simt.ptr_load"' in text and "!simt.ptr<f32, 0 : i64>" in text


@needs_ptxas
def test_pointer_space_union_assembles(tmp_path):
    ptx = assemble(_SRC, tmp_path)
    # The load through the pointer (LLVM may prove it global: only the global branch reaches it).
    assert re.search(r"\tld\.(global\.)?(b32|f32)\s", ptx)
