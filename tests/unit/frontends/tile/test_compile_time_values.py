"""Compile-time values of tile kernels (shapes, const operands, casts, shifts, repeat counts): a value that
is not what its use needs is a located error, never a Python TypeError/OverflowError (issue 15)."""

from __future__ import annotations

import pytest

from tests.unit.frontends.tile.helpers import build, kernel, reject


@pytest.mark.parametrize("shape, col, message", [
    ("1.5", 26, "shape dimension `1.5` is not an integer"),
    ("true", 26, "shape dimension `True` is not an integer"),
    ("1 << 40", 26, "shape dimension 1099511627776 is out of range"),
    ("-7", 26, "shape dimension -7 is out of range"),
    ("1 << 200", 44, "this `<<` shifts by 200"),
    ("-[128]", 40, "`-` needs a number here, found a compile-time array `[128]`"),
    ("[1] + [2]", 39, "`+` needs a number here"),
    ("!1.5", 39, "`!` applies to integers and bools, not floats"),
])
def test_bad_shape_values(shape: str, col: int, message: str):
    reject(kernel(f"let t = constant(0.0f32, const_shape![{shape}]);"), 6, col, message)


def test_repeat_count_is_bounded():
    reject(kernel("let a = [0i32; 1 << 40];"), 6, 16, "the length of `[x; N]` must be an integer from 0 to 4096")


def test_const_item_of_the_wrong_kind():
    src = kernel("let n = N + 1;", extra="const N: i32 = 2.5;")
    reject(src, 8, 16, "mismatched types: expected a `i32`, found the float `2.5`")


def test_float_to_int_cast_truncates_in_a_shape():
    # `(2.9 as i32) * 64` is 128 (Rust's `as` truncates): the cast used to return 2.9 unchanged.
    build(kernel("z.store(constant(0.0f32, const_shape![(2.9f32 as i32) * 64]));"))


def test_constant_shift_past_the_width_is_an_error():
    reject(kernel("let s = 1i32 << 40i32;"), 6, 9, "this `<<` shifts a `i32` by 40, which overflows")
