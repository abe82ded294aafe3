"""Rust format strings translated to C printf formats for gpu.printf (oxide.dialects.simt.printf)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oxide.dialects.simt.printf import printf_arg_type, rust_format_to_c

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("fmt, types, expected", [
    # Display: signedness and width pick the conversion; signless integers are signed, as Rust's iN.
    ("{}", ["i32"], "%d"),
    ("{}", ["ui32"], "%u"),
    ("{}", ["u32"], "%u"),
    ("{}", ["si16"], "%d"),
    ("{}", ["i8"], "%d"),
    ("{}", ["u8"], "%u"),
    ("{}", ["i64"], "%lld"),
    ("{}", ["u64"], "%llu"),
    ("{}", ["usize"], "%llu"),
    ("{}", ["isize"], "%lld"),
    ("{}", ["index"], "%lld"),
    ("{}", ["i1"], "%u"),
    ("{}", ["bool"], "%u"),
    ("{}", ["f32"], "%g"),
    ("{}", ["f64"], "%g"),
    ("{:?}", ["f32"], "%g"),
    ("{:?}", ["i32"], "%d"),
    # Precision is digits after the point for floats, ignored for integers (as in Rust).
    ("{:.2}", ["f32"], "%.2f"),
    ("{:.0}", ["f64"], "%.0f"),
    ("{:.3}", ["i32"], "%d"),
    ("{:e}", ["f32"], "%e"),
    ("{:E}", ["f64"], "%E"),
    ("{:.4e}", ["f64"], "%.4e"),
    # Radix.
    ("{:x}", ["i32"], "%x"),
    ("{:X}", ["u32"], "%X"),
    ("{:x}", ["u64"], "%llx"),
    ("{:o}", ["i32"], "%o"),
    ("{:o}", ["i64"], "%llo"),
    # '#' writes Rust's prefixes literally: lowercase 0x even for {:#X}, 0o for octal.
    ("{:#x}", ["i32"], "0x%x"),
    ("{:#X}", ["i32"], "0x%X"),
    ("{:#o}", ["u32"], "0o%o"),
    ("{:#x}", ["i64"], "0x%llx"),
    # Width counts the prefix in Rust, not in C.
    ("{:#010x}", ["u32"], "0x%08x"),
    ("{:#02x}", ["u32"], "0x%x"),
    ("{:<#8x}", ["u32"], "0x%-6x"),
    # Width, alignment, sign, zero padding.
    ("{:5}", ["i32"], "%5d"),
    ("{:>5}", ["i32"], "%5d"),
    ("{:<5}", ["i32"], "%-5d"),
    ("{: <5}", ["i32"], "%-5d"),
    ("{:+}", ["i32"], "%+d"),
    ("{:-}", ["i32"], "%d"),
    ("{:05}", ["i32"], "%05d"),
    ("{:+08.3}", ["f32"], "%+08.3f"),
    ("{:<05}", ["i32"], "%05d"),  # Rust ignores the alignment when zero-padding
    ("{:10.2e}", ["f64"], "%10.2e"),
    ("{:#?}", ["i32"], "%d"),
    # C conversions cuda-oxide's gpu_printf! accepts: fixed and shortest float forms, the space flag,
    # `-` with a width for left alignment.
    ("{:.6f}", ["f32"], "%.6f"),
    ("{:8.2f}", ["f64"], "%8.2f"),
    ("{:f}", ["f64"], "%f"),
    ("{:g}", ["f64"], "%g"),
    ("{:G}", ["f32"], "%G"),
    ("{: }", ["i32"], "% d"),
    ("{:-8}", ["i32"], "%-8d"),
    # Pointers.
    ("{:p}", ["!llvm.ptr"], "%p"),
    ("{:p}", ["!llvm.ptr<1>"], "%p"),
    # Literal text: braces doubled, percent signs escaped for C.
    ("{{}}", [], "{}"),
    ("{{{}}}", ["i32"], "{%d}"),
    ("100%", [], "100%%"),
    ("%d {}%", ["i32"], "%%d %d%%"),
    ("", [], ""),
    ("no placeholders\n", [], "no placeholders\n"),
    # Several arguments, in order.
    ("i = {}, x = {:.3}, bits = {:#010x}\n", ["i32", "f32", "u32"], "i = %d, x = %.3f, bits = 0x%08x\n"),
])
def test_translation(fmt, types, expected):
    assert rust_format_to_c(fmt, types) == expected


def test_mlir_type_objects(ctx):
    from mlir import ir

    types = [ir.IntegerType.get_signless(64), ir.F32Type.get(), ir.IntegerType.get_unsigned(16)]
    assert rust_format_to_c("{} {} {}", types) == "%lld %g %u"


@pytest.mark.parametrize("fmt, types, message", [
    ("{}", [], "has more placeholders than the 0 argument(s) given"),
    ("{} {}", ["i32"], "has more placeholders than the 1 argument(s) given"),
    ("{}", ["i32", "i32"], "has 1 placeholder(s) but 2 argument(s) were given"),
    ("x", ["f32"], "has 0 placeholder(s) but 1 argument(s) were given"),
    ("{0}", ["i32"], "'{0}': named and positional arguments are not supported"),
    ("{x}", ["i32"], "'{x}': named and positional arguments are not supported"),
    ("{:b}", ["i32"], "'{:b}': printf has no binary conversion"),
    ("{:q}", ["i32"], "'{:q}': unknown format type 'q'"),
    ("{:x}", ["f32"], "'{:x}' formats an integer, but argument 1 is a float"),
    ("{} {:o}", ["i32", "f64"], "'{:o}' formats an integer, but argument 2 is a float"),
    ("{:e}", ["i32"], "'{:e}' formats a float, but argument 1 is an integer"),
    ("{:.2f}", ["u32"], "'{:f}' formats a float, but argument 1 is an integer"),
    ("{:p}", ["i64"], "'{:p}' formats a pointer, but argument 1 is an integer"),
    ("{}", ["!llvm.ptr"], "a pointer prints only with '{:p}'"),
    ("{:^5}", ["i32"], "'{:^5}': printf cannot centre a value"),
    ("{:*<5}", ["i32"], "printf pads only with spaces or zeros (the 0 flag), not '*'"),
    ("{:#8x}", ["i32"], "printf cannot space-pad a prefixed number on the left"),
    ("{:1$}", ["i32", "i32"], "'{:1$}': unsupported format spec"),
    ("{:.*}", ["i32", "f32"], "'{:.*}': unsupported format spec"),
    ("{:width$}", ["i32"], "unsupported format spec"),
    ("a } b", [], "unmatched '}' at offset 2"),
    ("a { b", [], "unclosed '{' at offset 2"),
    ("{ {}", ["i32"], "unclosed '{' at offset 0"),
    ("{}", ["i128"], "printf cannot print a value of type i128"),
    ("{}", ["vector<4xf32>"], "printf cannot print a value of type vector<4xf32>"),
])
def test_rejections(fmt, types, message):
    with pytest.raises(ValueError) as info:
        rust_format_to_c(fmt, types)
    assert message in str(info.value)


@pytest.mark.parametrize("arg_type, expected", [
    ("i1", ("i32", "arith.extui")),
    ("bool", ("i32", "arith.extui")),
    ("i8", ("i32", "arith.extsi")),
    ("si16", ("i32", "arith.extsi")),
    ("u8", ("i32", "arith.extui")),
    ("ui16", ("i32", "arith.extui")),
    ("i32", ("i32", None)),
    ("u32", ("i32", None)),
    ("i64", ("i64", None)),
    ("index", ("i64", "arith.index_cast")),
    ("f16", ("f64", "arith.extf")),
    ("bf16", ("f64", "arith.extf")),
    ("f32", ("f64", "arith.extf")),
    ("f64", ("f64", None)),
    ("!llvm.ptr", ("!llvm.ptr", None)),
])
def test_argument_promotion(arg_type, expected):
    """vprintf reads C's promoted types: narrow integers as i32, floats as f64."""
    assert printf_arg_type(arg_type) == expected


def test_promotion_rejects_unprintable_types():
    with pytest.raises(ValueError, match="cannot print a value of type i128"):
        printf_arg_type("i128")


def test_gpu_kernel_format_is_current():
    """The printf kernel of the GPU tests uses exactly this module's translation of its Rust format."""
    source = (ROOT / "tests" / "gpu" / "kernels" / "math_debug.mlir").read_text()
    rust = re.search(r'// println!\("(.*)", x, n, n, n, small\)', source).group(1)
    c_format = re.search(r'gpu\.printf "(.*)", ', source).group(1)
    assert c_format == rust_format_to_c(rust + "\n", ["f32", "i32", "i32", "i32", "i8"]).replace("\n", "\\0A")
