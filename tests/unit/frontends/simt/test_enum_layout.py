"""Fieldless enums are their discriminant integer, sized as rustc sizes it, in registers and in memory:
the repr's integer; for `#[repr(C)]` C's int; with no repr the smallest integer that holds every
discriminant (u8 for a few variants, signed when one is negative). So `&[Kind]` buffers and structs with enum
fields have rustc's layout, the runtime takes arrays of the discriminant dtype, and `as` casts extend by the
discriminant's signedness."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oxide
from oxide.frontends.simt import types as T
from oxide.dialects.context import make_context
from oxide.runtime import KernelArgumentError
from tests.unit.frontends.simt.test_constructs import ir

HEADER = "use cuda_device::{kernel, thread, DisjointSlice};\n"


def _enum(variants: list[tuple[str, int]], repr: str = "") -> T.Enum:
    return T.Enum("E", tuple(variants), repr)


@pytest.mark.parametrize("variants, repr, storage", [
    ([("A", 0), ("B", 1), ("C", 2)], "", "u8"),
    ([(f"V{i}", i) for i in range(256)], "", "u8"),
    ([(f"V{i}", i) for i in range(257)], "", "u16"),
    ([("A", -1), ("B", 127)], "", "i8"),
    ([("A", -1), ("B", 128)], "", "i16"),
    ([("A", 0), ("B", 1 << 40)], "", "u64"),
    ([("A", 0), ("B", 1)], "C", "i32"),
    ([("A", 0), ("B", 1 << 40)], "C", "i64"),
    ([("A", 0), ("B", 1)], "u16", "u16"),
    ([("A", 0), ("B", 1)], "i64", "i64"),
])
def test_discriminant_type_is_rustcs(variants, repr, storage):
    enum = _enum(variants, repr)
    assert enum.storage.rust() == storage
    with make_context():
        assert T.layout(enum) == (int(storage[1:]) // 8,) * 2


def test_repr_c_with_an_integer_is_that_integer():
    text = ir(HEADER + """
#[repr(C, u8)]
#[derive(Clone, Copy)]
pub enum Kind { A, B }
#[kernel]
pub fn k(xs: &[Kind], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = xs[i] as u32; }
}
""")
    assert "!simt.slice<i8>" in text


STRUCT = HEADER + """
#[derive(Clone, Copy, PartialEq)]
pub enum Kind { A, B, C }

#[repr(i16)]
#[derive(Clone, Copy)]
pub enum Temp { Cold = -5, Warm = 3 }

#[repr(C)]
#[derive(Clone, Copy)]
pub struct P { kind: Kind, t: Temp, x: f32 }

#[kernel]
pub fn score(ps: &[P], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let p = ps[i];
        *o = p.x + if p.kind == Kind::B { 100.0 } else { 0.0 } + p.t as i32 as f32;
    }
}
"""


def test_struct_with_enum_fields_has_rustcs_layout():
    assert "!simt.slice<!llvm.struct<(i8, i16, f32)>>" in ir(STRUCT)
    compiled = oxide.compile(STRUCT, "score.rs")
    (ps, _) = compiled.artifact().kernels[0].params
    assert ps.layout == {"size": 8, "align": 4, "leaves": [[0, "u8"], [2, "i16"], [4, "f32"]]}
    ptx = compiled.ptx["sm_90"]
    for load in ("ld.global.nc.b8", "ld.global.nc.b16", "ld.global.nc.b32"):
        assert load in ptx


CLASSIFY = HEADER + """
#[derive(Clone, Copy, PartialEq, PartialOrd)]
pub enum Kind { A, B, C }

#[repr(i8)]
#[derive(Clone, Copy)]
pub enum Step { Back = -1, Stay = 0, Ahead = 1 }

#[kernel]
pub fn classify(kinds: &[Kind], steps: &[Step], mut out: DisjointSlice<i32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let rank = match kinds[i] { Kind::A => 10, Kind::B => 20, Kind::C => 30 };
        let later = if kinds[i] > Kind::A { 1000 } else { 0 };
        *o = rank + later + steps[i] as i32;
    }
}
"""


@pytest.fixture(scope="module")
def classify(tmp_path_factory: pytest.TempPathFactory):
    source = Path(tmp_path_factory.mktemp("enums")) / "classify.rs"
    source.write_text(CLASSIFY)
    return oxide.load(source, target="cpu").classify


def test_enum_buffers_take_the_discriminant_dtype(classify):
    kinds = np.array([0, 1, 2, 1], np.uint8)
    steps = np.array([-1, 0, 1, -1], np.int8)
    out = np.zeros(4, np.int32)
    classify.unchecked[1, 32](kinds, steps, out)
    assert out.tolist() == [10 - 1, 1020, 1031, 1020 - 1]  # `as i32` sign-extends an i8 discriminant


def test_enum_buffer_of_another_width_is_refused(classify):
    with pytest.raises(KernelArgumentError, match=r"elements of Kind \(uint8\); got 4 values of int32"):
        classify.unchecked[1, 32](np.zeros(4, np.int32), np.zeros(4, np.int8), np.zeros(4, np.int32))
