"""Slices of local arrays (`&arr`, `&mut arr`, `&arr[1..3]`, `&TABLE`, `arr.as_slice()`) passed to helpers,
indexed, measured, looped over and split; and bit-level casts (`mem::transmute` between scalars of one size,
`cast_unsigned` / `cast_signed`)."""

from __future__ import annotations

import pytest

from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.simt_interp import Trap, run_kernel
from tests.unit.frontends.simt.test_constructs import build, run

_HELPERS = """
static TABLE: [f32; 4] = [0.25, 0.5, 1.0, 2.0];
const HEAD: &[f32] = { let s: &[f32] = &TABLE; s.split_at(2).0 };
fn total(xs: &[f32]) -> f32 { let mut t = 0.0; for x in xs.iter() { t += *x; } t }
fn bump(xs: &mut [f32], by: f32) { for i in 0..xs.len() { xs[i] += by; } }
"""


def test_local_arrays_and_statics_as_slices():
    body = """let mut arr = [1.0f32, 2.0, 3.0, 4.0];
bump(&mut arr, 1.0);
bump(&mut arr[..1], 10.0);
let s: &[f32] = &arr;
out[0] = total(s) + s.len() as f32;
out[1] = total(&arr[1..3]);
out[2] = total(&TABLE) + total(HEAD) * 100.0;
out[3] = arr.as_slice().iter().sum();"""
    assert run("", body, [], extra=_HELPERS, ty="f32")[:4] == [28.0, 7.0, 3.75 + 75.0, 24.0]


def test_local_slice_index_is_bounds_checked():
    src = "#[kernel]\npub unsafe fn k(i: usize, out: &mut [f32]) {\n    let a = [1.0f32, 2.0];\n" \
          "    let s: &[f32] = &a;\n    out[0] = s[i];\n}"
    out = [0.0]
    run_kernel(build(src), [1, out])
    assert out == [2.0]
    with pytest.raises(Trap):
        run_kernel(build(src), [2, [0.0]])


def test_writing_through_a_shared_local_slice_is_rejected():
    src = "#[kernel]\npub unsafe fn k(out: &mut [f32]) {\n    let a = [1.0f32, 2.0];\n    let s: &[f32] = &a;\n" \
          "    s[0] = 3.0;\n}"
    with pytest.raises(OxideError, match=r"cannot assign to an element of a `&\[T\]`"):
        build(src)


def test_transmute_and_sign_casts_keep_the_bits():
    body = """let f = unsafe { core::mem::transmute::<u32, f32>(bits) };
let back: u32 = unsafe { core::mem::transmute(f) };
out[0] = back;
out[1] = (-1i32).cast_unsigned();
out[2] = (f.to_bits() == bits) as u32 + 2 * (7u32.cast_signed() == 7i32) as u32;"""
    assert run("bits: u32, ", body, [0x3F800000])[:3] == [0x3F800000, 0xFFFFFFFF, 3]
    with pytest.raises(OxideError, match="cannot transmute between types of different sizes"):
        build("#[kernel]\npub unsafe fn k(x: u32, out: &mut [u64]) {\n    out[0] = core::mem::transmute::<u32, u64>(x);\n}")


def test_transmute_of_a_pointer_to_an_option_reference_reads_only_non_null():
    src = """#[kernel]
pub unsafe fn k(input: &[u32], i: usize, out: &mut [u64]) {
    let p: *const u32 = if i < input.len() { input.as_ptr().add(i) } else { core::ptr::null() };
    let opt: Option<&u32> = core::mem::transmute(p);
    out[0] = match opt { Some(x) => *x as u64, None => 99 };
}"""
    text = build(src).module
    assert "scf.if" in str(text) and '"simt.ptr_load"' in str(text)
    out = [0]
    run_kernel(build(src), [[5, 6], 1, out])
    assert out == [6]
