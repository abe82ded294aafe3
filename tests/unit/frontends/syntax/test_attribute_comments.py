"""Comments and doc comments between attributes, or between an attribute and its item, change nothing: the
attributes still belong to the item (issue 15: a comment used to drop every attribute gathered before it)."""

from __future__ import annotations

import numpy as np
import pytest

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_constructs import build, ir

_COPY = """    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = x[i]; }"""
_USE = "use cuda_device::{kernel, launch_contract, thread, DisjointSlice};\n"

# What may stand between `#[kernel]` and the function: every comment form of Rust.
_BETWEEN = ["// entry", "/* entry */", "/// entry\n", "//! entry\n", "/** entry */", "/*! entry */",
            "/* a\n multi-line\n block */", "// one\n// two\n"]


@pytest.mark.parametrize("between", _BETWEEN)
def test_a_comment_after_kernel_keeps_the_kernel(between):
    src = _USE + f"#[kernel] {between}\npub fn k(x: &[f32], mut out: DisjointSlice<f32>) {{\n{_COPY}\n}}\n"
    assert [info.name for info in build(src).kernels] == ["k"]


def test_a_commented_kernel_next_to_another_kernel_is_kept():
    src = _USE + (f"#[kernel] // entry\npub fn first(x: &[f32], mut out: DisjointSlice<f32>) {{\n{_COPY}\n}}\n"
                  f"#[kernel]\npub fn second(x: &[f32], mut out: DisjointSlice<f32>) {{\n{_COPY}\n}}\n")
    assert [info.name for info in build(src).kernels] == ["first", "second"]
    ptx = oxide.compile(src, name="k.rs").ptx["sm_90"]
    assert ".entry first(" in ptx and ".entry second(" in ptx


@pytest.mark.parametrize("between", ["// note", "/* note */", "\n/// note\n", "\n// a\n/* b */\n"])
def test_a_comment_after_launch_contract_keeps_the_contract(between):
    src = _USE + (f"#[launch_contract(domain = 1, block = (256, 1, 1))] {between}\n#[kernel]\n"
                  f"pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {{\n{_COPY}\n}}\n")
    (info,) = build(src).kernels
    assert info.contract == {"domain": 1, "block": [256, 1, 1]}
    assert "simt.contract = {block = array<i32: 256, 1, 1>, domain = 1 : i64}" in ir(src)
    assert ".reqntid 256, 1, 1" in oxide.compile(src, name="k.rs").ptx["sm_90"]


def test_comments_inside_an_attribute_are_not_part_of_its_arguments():
    src = _USE + ("#[kernel]\n#[launch_contract(domain = 1, // the shape\n  block = (256, /* y */ 1, 1))]\n"
                  f"pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {{\n{_COPY}\n}}\n")
    (info,) = build(src).kernels
    assert info.contract == {"domain": 1, "block": [256, 1, 1]}


def test_attributes_on_separate_lines_with_comments_between_them():
    src = _USE + ("/// A copy kernel.\n#[kernel]\n// checked launches:\n/* exactly 256 threads */\n"
                  "#[launch_contract(domain = 1, block = (256, 1, 1))]\n/// doc after the attributes\n"
                  f"pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {{\n{_COPY}\n}}\n")
    (info,) = build(src).kernels
    assert info.name == "k" and info.contract == {"domain": 1, "block": [256, 1, 1]}


_SIZES = """use cuda_device::kernel;
#[repr(C, align(16))] // aligned
#[derive(Clone, Copy)]
pub struct F3([f32; 3]);
#[repr(C, /* padded */ align(16))]
/// doc
#[derive(Clone, Copy)]
pub struct G3([f32; 3]);
#[kernel]
pub unsafe fn sizes(out: &mut [usize]) {
    #[repr(align(16))] // a local item keeps its attributes too
    #[derive(Clone, Copy)]
    struct L(u32);
    out[0] = core::mem::size_of::<F3>();
    out[1] = core::mem::size_of::<[F3; 2]>();
    out[2] = core::mem::size_of::<G3>();
    out[3] = core::mem::size_of::<L>();
}
"""


def test_a_comment_after_repr_keeps_the_alignment_and_stride():
    out = np.zeros(4, np.uint64)
    launch(oxide.compile(_SIZES, "k.rs").emulator, "sizes", (1,), (1,), [out])
    assert out.tolist() == [16, 32, 16, 16]
