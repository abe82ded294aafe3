"""Raw pointers into local arrays (local_pointers.py): `slots.as_ptr()` of a local array, moved with `add` /
`sub` / `offset`, read with `*p` / `p.read()` (trapping outside the array), passed to helpers taking a
`*const T` or, for an array of pointers, a `*const *const T`; pointers held in nested structs and chosen by
helpers. (`let mut` of such a pointer and reading a pointer from real memory are located errors:
rejections/pointer_to_pointer_in_memory.rs and test_let_mut_local_pointer_is_rejected.)"""

from __future__ import annotations

import numpy as np
import pytest

import oxide
from oxide.diagnostics import OxideError
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_constructs import build, kernel
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_SCALARS = """use cuda_device::{DisjointSlice, kernel, thread};

unsafe fn third(p: *const u32) -> u32 {
    unsafe { p.add(2).read() }
}

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get() as u32;
    let words = [i, 10, 20 + i, 30 * i];
    let w = words.as_ptr();
    let v = unsafe { third(w) + *w.add(3).sub(2) + *w.offset(3) };
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
"""

# A local array of pointers (held as their addresses: the emulator has no integer-to-pointer cast, so ptxas
# checks this one), read through a `*const *const f32` helper parameter.
_POINTERS = """use cuda_device::{DisjointSlice, kernel, thread};

#[derive(Copy, Clone)]
struct Pair { first: *const f32, second: *const f32 }

fn second_of(pair: &Pair) -> *const f32 {
    pair.second
}

unsafe fn load_slot(slot: *const *const f32) -> *const f32 {
    unsafe { *slot }
}

#[kernel]
pub fn k(values: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let n = values.len();
    if let Some(o) = out.get_mut(idx) {
        let base = values.as_ptr();
        let pair = Pair { first: unsafe { base.add((i + 1) % n) }, second: unsafe { base.add((i + 3) % n) } };
        let slots = [second_of(&pair), pair.first, pair.second, base];
        let p = unsafe { load_slot(slots.as_ptr().add((i >> 1) & 3)) };
        *o = unsafe { *p };
    }
}
"""


def test_local_array_pointers():
    out = np.zeros(32, np.uint32)
    launch(oxide.compile(_SCALARS, "k.rs").emulator, "k", (1,), (32,), [out])
    assert out.tolist() == [(20 + i) + 10 + 30 * i for i in range(32)]


def test_reading_outside_the_array_traps():
    src = kernel("mut out: DisjointSlice<u32>",
                 "let a = [1u32, 2, 3];\nlet v = unsafe { *a.as_ptr().add(3) };\n"
                 "if let Some(o) = out.get_mut(thread::index_1d()) { *o = v; }")
    with pytest.raises(Exception, match="trap"):
        launch(oxide.compile(src, "k.rs").emulator, "k", (1,), (1,), [np.zeros(1, np.uint32)])


def test_let_mut_local_pointer_is_rejected():
    src = kernel("", "let a = [1u32, 2];\nlet mut p = a.as_ptr();")
    with pytest.raises(OxideError, match=r"a mutable local of type \*const u32 is not supported as `mut`"):
        build(src)


@needs_ptxas
def test_local_array_pointers_assemble(tmp_path):
    for src in (_SCALARS, _POINTERS):
        assemble(src, tmp_path)
