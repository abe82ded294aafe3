"""Raw pointers to a local's cell (cell_pointers.py): `addr_of!` / `addr_of_mut!` of a local, of an element or field
of one, and of a by-value `&T` binding's field; reads and writes through `*p` land in the local. (What such a
pointer cannot do is in rejections/cell_pointer_*.rs.)"""

from __future__ import annotations

import numpy as np
import pytest

import oxide
from oxide.diagnostics import OxideError
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_SRC = """use cuda_device::{kernel, thread, DisjointSlice};
#[derive(Clone, Copy)]
struct P([f32; 3], u32);
#[kernel]
pub fn k(input: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let p = P([input[i], input[i] * 2.0, input[i] * 3.0], 7);
    let r: &P = &p;
    let j = i % 2;
    let a: *const f32 = core::ptr::addr_of!(r.0[j + 1]);
    let b = core::ptr::addr_of!(p.1);
    let mut acc = [input[i], 0.0, 1.0];
    let pm: *mut f32 = core::ptr::addr_of_mut!(acc[j + 1]);
    let mut t = (1.0f32, 2.0f32);
    let pt = core::ptr::addr_of_mut!(t.1);
    let whole = core::ptr::addr_of_mut!(acc);
    unsafe {
        *pm += 5.0;
        *pt = *pt * 10.0;
        (*whole)[0] += 100.0;
        pt.write(pt.read() + 0.5);
    }
    let v = unsafe { *a + *b as f32 };
    if let Some(o) = out.get_mut(idx) {
        *o = v * 1000.0 + acc[0] + acc[1] * 10.0 + acc[2] * 100.0 + t.1;
    }
}
"""


def test_reads_and_writes_through_pointers_to_locals():
    data = np.arange(1, 5, dtype=np.float32)
    out = np.zeros(4, np.float32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "k", (1, 1, 1), (4, 1, 1), [data, out])
    expected = []
    for i, x in enumerate(data.tolist()):
        j = i % 2
        acc = [x + 100.0, 0.0, 1.0]
        acc[j + 1] += 5.0
        expected.append(((x, 2 * x, 3 * x)[j + 1] + 7) * 1000 + acc[0] + acc[1] * 10 + acc[2] * 100 + 20.5)
    assert out.tolist() == expected


@needs_ptxas
def test_pointers_to_locals_assemble(tmp_path):
    assemble(_SRC, tmp_path)


# Both kinds of pointer to locals in one kernel: `addr_of_mut!(acc)` is the local's cell (cell_pointers.py),
# `words.as_ptr()` a movable position in a local array (local_pointers.py); each keeps its own methods.
_BOTH = """use cuda_device::{DisjointSlice, kernel, thread};
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get() as u32;
    let words = [i, 10, 20 + i];
    let w = words.as_ptr();
    let mut acc = 0u32;
    let pa = core::ptr::addr_of_mut!(acc);
    unsafe {
        *pa += *w.add(2);
        pa.write(pa.read() + w.add(1).read());
    }
    if let Some(o) = out.get_mut(idx) {
        *o = acc;
    }
}
"""


def test_cell_pointers_and_array_pointers_together():
    out = np.zeros(4, np.uint32)
    launch(oxide.compile(_BOTH, "k.rs").emulator, "k", (1, 1, 1), (4, 1, 1), [out])
    assert out.tolist() == [30 + i for i in range(4)]


def test_cell_pointer_has_no_add():
    src = _BOTH.replace("pa.write(pa.read() + w.add(1).read());", "pa.add(1);")
    with pytest.raises(OxideError, match="`add` of a pointer to a local is not supported"):
        oxide.compile(src, "k.rs")
