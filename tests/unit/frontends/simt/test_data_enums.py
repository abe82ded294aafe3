"""Enums whose variants carry fields: construction, `match` / `if let` with payload bindings (also through
`&mut local`, in place), arrays of them, literal typing across match arms; and what stays rejected (enums
with fields in memory or as kernel parameters, variants with named fields)."""

from __future__ import annotations

import re

import pytest

from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import build, run

_ENUM = """
#[derive(Clone, Copy)]
pub enum E { A(u32), B(u32, f32) = 9, C }
fn pick(p: &[E; 4], i: usize) -> u32 {
    match (*p)[i] {
        E::A(x) => x,
        E::B(y, f) => y + 1000 + f as u32,
        E::C => 9999,
    }
}
"""


def test_match_on_an_array_of_enums_binds_the_payload():
    body = """let xs: [E; 4] = [E::A(7), E::B(8, 2.5), E::C, E::A(100)];
for i in 0..4 { out[i] = pick(&xs, i); }
let tag = match xs[1] { E::B(..) => 1u32, _ => 0 };
out[4] = tag;"""
    assert run("", body, [], extra=_ENUM)[:5] == [7, 1010, 9999, 100, 1]


def test_if_let_through_a_mutable_reference_writes_the_payload_in_place():
    body = """let mut slot = E::A(1);
if let E::A(v) = &mut slot { *v = n * 2; }
out[0] = match slot { E::A(v) => v, _ => 0 };
let mut other = E::C;
if let E::A(v) = &mut other { *v = 5; }
out[1] = match other { E::C => 3, _ => 4 };"""
    assert run("n: u32, ", body, [21], extra=_ENUM)[:2] == [42, 3]


def test_later_match_arms_take_the_type_of_the_first():
    body = """let e = if n > 1 { E::A(n) } else { E::C };
out[0] = match e { E::A(x) => x, E::B(y, _) => y + 100, E::C => 999 };"""
    assert run("n: u32, ", body, [5], extra=_ENUM)[0] == 5
    assert run("n: u32, ", body, [0], extra=_ENUM)[0] == 999


@pytest.mark.parametrize("params, message", [
    ("xs: &[E]", "a slice of `E` elements is not supported in device code"),
    ("e: E", "a kernel parameter of type `E` (an enum with fields) is not supported"),
])
def test_enums_with_fields_stay_out_of_memory(params, message):
    with pytest.raises(OxideError, match=re.escape(message)):
        build(f"#[kernel]\npub unsafe fn k({params}) {{}}\n{_ENUM}")


def test_rest_and_reference_patterns():
    body = """let t = (n, 2u32, 3u32);
let (a, ..) = t;
let (.., c) = t;
let mut s = 0u32;
for &x in xs.iter() { s += x; }
let twice = |&v: &u32| v * 2;
out[0] = a * 100 + c * 10 + s + twice(&n);"""
    assert run("n: u32, xs: &[u32], ", body, [4, [1, 2]])[0] == 400 + 30 + 3 + 8


def test_payload_borrowed_across_a_call_is_written_in_place():
    # cuda-oxide rejects this (error_enum_bool_payload_addr: it would copy the payload); here the borrow is
    # the payload's own storage, so the flip is kept. `result` takes u32 from its use.
    extra = """pub enum Flag { On(bool), Off }
fn flip_in_place(value: &mut bool) { *value = !*value; }"""
    body = """let mut flag = if seed & 1 == 0 { Flag::On(seed & 2 != 0) } else { Flag::Off };
if let Flag::On(value) = &mut flag { flip_in_place(value); }
let result = match flag { Flag::On(true) => 2, Flag::On(false) => 1, Flag::Off => 0 };
out[0] = result;"""
    assert [run("seed: u32, ", body, [seed], extra=extra)[0] for seed in (0, 2, 1)] == [2, 1, 0]


def test_unit_inside_arrays_of_tuples():
    body = """let table: [((u8, ()), u32); 2] = [((3, ()), 17), ((5, ()), 29)];
let ((tag, ()), value) = table[i & 1];
out[0] = tag as u32 * 100 + value;"""
    assert run("i: usize, ", body, [1])[0] == 529
