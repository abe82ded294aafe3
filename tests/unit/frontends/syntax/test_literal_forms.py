"""Every literal form of Rust, as a table: the value it stands for, or the located error rustc's rules give
(never a Python exception: issue 15 found `int()`/`float()`/`unicode_escape` failures on mutated literals)."""

from __future__ import annotations

import re

import pytest

from oxide.frontends.simt.compile import compile_rust
from oxide.dialects.context import make_context
from oxide.diagnostics import OxideError

# `*o = EXPR;` with `o: &mut T`: the literal is on line 6 at column 14.
_KERNEL = """use cuda_device::{{kernel, thread, DisjointSlice}};
#[kernel]
pub fn k(mut out: DisjointSlice<{ty}>) {{
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {{
        *o = {expr};
    }}
}}
"""


def _ir(ty: str, expr: str) -> str:
    return str(compile_rust(_KERNEL.format(ty=ty, expr=expr), "k.rs", make_context()).module)


def _error(ty: str, expr: str) -> OxideError:
    with pytest.raises(OxideError) as info:
        _ir(ty, expr)
    return info.value


ACCEPTED = [
    # (element type, literal, the constant it becomes in the IR)
    ("f32", "2f32", "2.000000e+00 : f32"),
    ("f64", "1_000f64", "1.000000e+03 : f64"),
    ("f32", "1e5f32", "1.000000e+05 : f32"),
    ("f32", "1_000.5_f32", "1.000500e+03 : f32"),
    ("f64", "1E+3_f64", "1.000000e+03 : f64"),
    ("f32", "3.4e38f32", "3.400000e+38 : f32"),
    ("u32", "0x_ff_u32", "255 : i32"),
    ("u32", "0x1f32", "7986 : i32"),  # hex digits, not an f32 suffix
    ("u8", "0xFFu8", "-1 : i8"),
    ("u8", "0b1010_u8", "10 : i8"),
    ("i64", "0o7i64", "7 : i64"),
    ("u32", "5__", "5 : i32"),
    ("i8", "0x80i8", "-128 : i8"),  # a hex literal may be any bit pattern of the width
    ("u32", "'\\u{41}' as u32", "65 : i32"),
    ("u8", "b'\\xff'", "-1 : i8"),
    ("u32", "'\\x7F' as u32", "127 : i32"),
]


@pytest.mark.parametrize("ty, expr, constant", ACCEPTED, ids=[a[1] for a in ACCEPTED])
def test_literal_value(ty: str, expr: str, constant: str):
    assert re.search(r"arith\.constant " + re.escape(constant), _ir(ty, expr)), (expr, constant)


REJECTED = [
    # (element type, literal, message substring); every error is at the literal (6:14)
    ("u32", "1e308u32", "invalid suffix `u32` for float literal"),
    ("f32", "1.5u8", "invalid suffix `u8` for float literal"),
    ("f32", "1e308f32", "literal out of range for `f32`"),
    ("f32", "999999999999999999999999999999999999999999999999999999999999f32", "literal out of range for `f32`"),
    ("f64", "1e400", "literal out of range for `f64`"),
    ("f32", "1e39", "literal out of range for `f32`"),  # unsuffixed, typed f32 by where it goes
    ("u32", "340282366920938463463374607431768211456", "integer literal is too large"),
    ("u32", "9" * 5000, "integer literal is too large"),  # beyond int()'s digit limit
    ("u32", "0x1" + "0" * 40, "integer literal is too large"),
    ("u8", "256u8", "literal out of range for `u8`: the range of `u8` is 0..=255"),
    ("i8", "200i8", "literal out of range for `i8`: the range of `i8` is -128..=127"),
    ("u64", "18446744073709551616u64", "literal out of range for `u64`"),
    ("u32", "4294967296", "literal out of range for `u32`"),
    ("f32", "0b1f32", "a base 2 float literal is not supported"),
    ("f64", "1.0f128", "`f128` type is not supported"),
]


@pytest.mark.parametrize("ty, expr, message", REJECTED, ids=[r[1][:30] for r in REJECTED])
def test_literal_error(ty: str, expr: str, message: str):
    diag = _error(ty, expr).diagnostics[0]
    assert message in diag.message
    assert (diag.loc.line, diag.loc.col) == (6, 14), diag


ESCAPES = [
    # (literal, message substring, column of the escape)
    ("'\\u{110000}' as u32", "is not a Unicode scalar value", 15),
    ("'\\u{D800}' as u32", "is not a Unicode scalar value", 15),
    ("'\\u{1234567}' as u32", "one to six hex digits", 15),
    ("'\\q' as u32", "unknown character escape `\\q`", 15),
    ("'\\x80' as u32", "`\\x80` is out of range", 15),
    ("b'\\u{41}'", "unknown character escape `\\u`", 16),
]


@pytest.mark.parametrize("expr, message, col", ESCAPES, ids=[e[0] for e in ESCAPES])
def test_escape_error(expr: str, message: str, col: int):
    diag = _error("u32" if "as u32" in expr else "u8", expr).diagnostics[0]
    assert message in diag.message
    assert (diag.loc.line, diag.loc.col) == (6, col), diag


def test_bad_escape_in_a_printf_format_points_at_the_escape():
    src = _KERNEL.format(ty="f32", expr='1.0;\n        gpu_printf!("x = \\q", 1)')
    with pytest.raises(OxideError) as info:
        compile_rust(src, "k.rs", make_context())
    diag = info.value.diagnostics[0]
    assert "unknown character escape `\\q`" in diag.message
    assert (diag.loc.line, diag.loc.col) == (7, 26)


@pytest.mark.parametrize("arms, upper", [("1..5 => 1, _ => 0", "4"), ("1..=5 => 1, _ => 0", "5")])
def test_range_pattern_upper_bound(arms: str, upper: str):
    """An exclusive range pattern `1..5` matches what `1..=4` matches (it was read as `1..=5`)."""
    text = _ir("u32", f"match 2u32 {{ {arms} }}")
    assert re.search(rf"arith\.constant {upper} : i32", text), text


@pytest.mark.parametrize("arms, message", [
    ("5.. => 1, _ => 0", "a range pattern with an open end"),
    ("..=5 => 1, _ => 0", "a range pattern with an open end"),
    ("1...4 => 1, _ => 0", "a `...` range pattern"),
    ("5..=1 => 1, _ => 0", "matches no value"),
    ("N..=4 => 1, _ => 0", "the pattern `N`"),
])
def test_range_pattern_errors(arms: str, message: str):
    diag = _error("u32", f"match 3u32 {{ {arms} }}").diagnostics[0]
    assert message in diag.message and diag.loc.line == 6, diag


@pytest.mark.parametrize("length, message", [
    ("1 << 200", "this `<<` shifts by 200"),
    ("4 / 0", "divides by zero"),
    ("(1 << 100) * (1 << 100)", "overflows"),
    ("340282366920938463463374607431768211455", "array length 340282366920938463463374607431768211455 is out of range"),
    ("0 - 1", "array length -1 is out of range"),
])
def test_array_length_errors(length: str, message: str):
    src = _KERNEL.format(ty="f32", expr=f"{{ let a = [0.0f32; {length}]; a[0] }}").replace(
        "let a = [0.0f32;", "let a: [f32; " + length + "] = [0.0f32;")
    with pytest.raises(OxideError) as info:
        compile_rust(src, "k.rs", make_context())
    assert message in info.value.diagnostics[0].message


def test_negative_enum_discriminant_still_reads():
    src = "#[repr(i32)]\nenum E { A = -5, B = 3 }\n" + _KERNEL.format(ty="i32", expr="E::A as i32")
    assert re.search(r"arith\.constant -5 : i32", str(compile_rust(src, "k.rs", make_context()).module))
