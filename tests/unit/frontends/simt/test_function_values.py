"""Functions and closures as values: function items passed to generic helpers and called through bindings,
`fn(..)` annotations, `fn_addr_eq`, closures stored in struct fields, return types fixed by the body; and the
literal typing that comes with them (turbofish arguments, generic struct fields, tuples of literals)."""

from __future__ import annotations

import pytest

from tests.unit.frontends.simt.simt_interp import Trap
from tests.unit.frontends.simt.test_constructs import ir, run

_HELPERS = """
fn plus_seven(x: u32) -> u32 { x + 7 }
fn twice(x: u32) -> u32 { x * 2 }
fn split(x: u32) -> (u32, u32) { (x / 10, x % 10) }
fn nested_sum(v: (u32, (u32, u32))) -> u32 { v.0 + (v.1).0 * (v.1).1 }
fn apply<F: Fn(u32) -> u32>(f: F, x: u32) -> u32 { f(x) }
fn apply_mut<F: FnMut(u32) -> u32>(f: &mut F, x: u32) -> u32 { f(x) }
fn apply_value<T, R, F: FnOnce(T) -> R>(f: F, value: T) -> R { f(value) }
fn identity<T: Copy>(value: T) -> T { value }
struct Wrapper<F> { f: F, offset: u32 }
"""


def test_function_items_are_called_through_generic_helpers_and_bindings():
    body = """let mut callable = plus_seven;
let f: fn(u32) -> u32 = twice;
out[0] = apply(plus_seven, n);
out[1] = apply_mut(&mut callable, n);
out[2] = f(n);
let (tens, ones) = apply_value(split, n);
out[3] = tens;
out[4] = ones;
out[5] = apply_value(nested_sum, (n, (2, 3)));
out[6] = core::ptr::fn_addr_eq(f, f) as u32 + 2 * (core::ptr::fn_addr_eq(f, plus_seven) as u32);"""
    assert run("n: u32, ", body, [42], extra=_HELPERS) == [49, 49, 84, 4, 2, 48, 1, 0]


def test_closure_stored_in_a_struct_field_is_called():
    body = """let factor = 3u32;
let w = Wrapper { f: |x: u32| x * factor, offset: 1 };
out[0] = (w.f)(n) + w.offset;
let ignore = |_| 5u32;
out[1] = ignore(n);"""
    assert run("n: u32, ", body, [4], extra=_HELPERS)[:2] == [13, 5]


def test_turbofish_types_the_literal_argument():
    body = """if identity::<f32>(0.5) != 0.5 || identity::<u8>(200) != 200 { return; }
out[0] = identity::<u32>(7);"""
    text = ir(f"#[kernel]\npub unsafe fn k(out: &mut [u32]) {{\n{body}\n}}\n{_HELPERS}")
    assert "arith.constant 5.000000e-01 : f32" in text and "arith.constant -56 : i8" in text
    assert run("", body, [], extra=_HELPERS)[0] == 7


def test_loop_without_break_is_an_infinite_loop_of_type_never():
    text = ir("""fn spin(_x: u32) -> ! { loop {} }
#[kernel]
pub unsafe fn k(stop: bool, out: &mut [u32]) {
    if stop { spin(1); }
    out[0] = 1;
}""")
    assert "scf.while" in text


def test_iterator_reductions_arrays_from_fn_and_map():
    body = """let doubled: u32 = xs.iter().map(|&x| x.wrapping_mul(2)).sum();
let generated: [u32; 4] = core::array::from_fn(|i| n + i as u32);
let mapped = generated.map(|v| v * 3 + 1);
out[0] = doubled;
out[1] = mapped.into_iter().sum();
out[2] = generated.iter().copied().product::<u32>() % 1000;
let empty: u32 = xs[..0].iter().sum();
out[3] = empty;"""
    text = ir(f"#[kernel]\npub unsafe fn k(n: u32, xs: &[u32], out: &mut [u32]) {{\n{body}\n}}")
    assert "scf.for" in text
    # generated = [2, 3, 4, 5]; mapped = [7, 10, 13, 16]; product 120
    assert run("n: u32, xs: &[u32], ", body, [2, [1, 2, 3]])[:4] == [12, 46, 120, 0]


def test_select_replace_and_qualified_trait_calls():
    extra = """trait Measure { fn measure(self) -> u32; }
#[derive(Clone, Copy)]
struct Vec2 { x: u32, y: u32 }
impl Measure for Vec2 { fn measure(self) -> u32 { self.x * 10 + self.y } }
fn measure_any<T: Measure>(v: T) -> u32 { T::measure(v) }"""
    body = """let v = Vec2 { x: n, y: 2 };
out[0] = <Vec2 as Measure>::measure(v) + Vec2::measure(v) + measure_any(v);
let mut y = 5u32;
let old = core::mem::replace(&mut y, 7);
out[1] = old * 10 + y;
out[2] = core::hint::select_unpredictable(n > 3, n, 3);"""
    assert run("n: u32, ", body, [4], extra=extra)[:3] == [126, 57, 4]


def test_maybe_uninit_locals_and_uninhabited_assume_init():
    extra = "#[derive(Clone, Copy)]\npub struct Align16([f32; 3]);"
    body = """let mut slot: core::mem::MaybeUninit<Align16> = core::mem::MaybeUninit::uninit();
slot.write(Align16([t, t + 1.0, t + 2.0]));
let v = unsafe { slot.assume_init() };
out[0] = v.0[0] + v.0[1] + v.0[2];
if t > 100.0 {
    unsafe { core::mem::MaybeUninit::<core::convert::Infallible>::uninit().assume_init() };
}"""
    assert run("t: f32, ", body, [2.0], extra=extra, ty="f32")[0] == 9.0
    with pytest.raises(Trap):
        run("t: f32, ", body, [200.0], extra=extra, ty="f32")


def test_operator_impl_for_a_reference_with_an_associated_output():
    extra = """#[derive(Clone, Copy)]
pub struct Foo { v: u32 }
impl core::ops::Mul for &Foo {
    type Output = Foo;
    fn mul(self, rhs: Self) -> Self::Output { Foo { v: self.v * rhs.v } }
}"""
    body = "let a = Foo { v: n };\nlet b = Foo { v: 3 };\nlet p = &a * &b;\nout[0] = p.v;"
    assert run("n: u32, ", body, [5], extra=extra)[0] == 15


def test_bool_then_runs_the_closure_only_when_true():
    body = """let a = (n > 3).then(|| out[1] + n);
let b = (n > 9).then_some(7u32);
out[0] = a.unwrap_or(0) * 10 + b.unwrap_or(1);"""
    text = ir(f"#[kernel]\npub unsafe fn k(n: u32, out: &mut [u32]) {{\n{body}\n}}")
    assert "scf.if" in text
    assert run("n: u32, ", body, [5])[0] == 51
    assert run("n: u32, ", body, [2])[0] == 1
