"""Frontend tests of the value-level device API (oxide/frontends/simt/intrinsics: core_fns, conversions, int_methods,
casts, libm): what each construct computes, through the reference interpreter, or the IR it emits where
the interpreter has no model of the op."""

from __future__ import annotations

import pytest

from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.simt_interp import Trap, to_signed
from tests.unit.frontends.simt.test_constructs import build, ir, kernel, run

U32_MAX = 0xFFFF_FFFF


# core::hint / core::mem ------------------------------------------------------------------------------------
def test_select_unpredictable_picks_by_condition():
    body = ("out[0] = core::hint::select_unpredictable(a > b, a, b);\n"
            "out[1] = core::hint::select_unpredictable(a < b, a, b);")
    assert run("a: u32, b: u32, ", body, [7, 3])[:2] == [7, 3]
    assert "arith.select" in ir(kernel("a: u32, b: u32, mut o: DisjointSlice<u32>",
                                       "let v = core::hint::select_unpredictable(a > b, a, b);"))


def test_select_unpredictable_of_tuples_selects_each_leaf():
    body = "let (x, y) = core::hint::select_unpredictable(c, (a, 1u32), (b, 2u32));\nout[0] = x;\nout[1] = y;"
    assert run("c: bool, a: u32, b: u32, ", body, [False, 5, 9])[:2] == [9, 2]


def test_black_box_is_the_value():
    assert run("a: u32, ", "out[0] = core::hint::black_box(a) + 1;", [41])[0] == 42


def test_mem_replace_returns_the_old_value_and_stores_the_new():
    body = "let mut y = a;\nlet old = core::mem::replace(&mut y, 7);\nout[0] = old;\nout[1] = y;"
    assert run("a: u32, ", body, [11])[:2] == [11, 7]


def test_mem_take_leaves_the_default():
    body = "let mut y = a;\nlet old = core::mem::take(&mut y);\nout[0] = old;\nout[1] = y;"
    assert run("a: u32, ", body, [11])[:2] == [11, 0]


def test_mem_replace_needs_a_mutable_place():
    with pytest.raises(OxideError, match="takes `&mut place` as its first argument"):
        build(kernel("a: u32", "let y = a;\nlet old = core::mem::replace(&y, 7);"))


# transmute, From, byte views --------------------------------------------------------------------------------
def test_transmute_reinterprets_scalar_bits():
    body = ("out[0] = unsafe { core::mem::transmute::<f32, u32>(x) };\n"
            "out[1] = unsafe { core::mem::transmute::<i32, u32>(-1) };")
    assert run("x: f32, ", body, [1.0])[:2] == [0x3F80_0000, U32_MAX]


def test_transmute_to_float():
    out = run("b: u32, ", "out[0] = unsafe { core::mem::transmute::<u32, f32>(b) };", [0x4049_0FDB], ty="f32")
    assert out[0] == pytest.approx(3.1415927)


def test_transmute_between_sizes_is_rejected():
    with pytest.raises(OxideError, match="cannot transmute between types of different sizes"):
        build(kernel("b: u32", "let x = unsafe { core::mem::transmute::<u32, u64>(b) };"))


def test_transmute_needs_unsafe():
    with pytest.raises(OxideError, match="requires an `unsafe` block"):
        build(kernel("b: u32", "let x = core::mem::transmute::<u32, f32>(b);"))


def test_from_widens_losslessly():
    body = ("out[0] = u32::from(f);\nout[1] = u32::from(t);\nout[2] = u32::from(b);\n"
            "out[3] = u64::from(b) as u32;")
    assert run("f: bool, t: bool, b: u8, ", body, [False, True, 200])[:4] == [0, 1, 200, 200]


def test_from_signed_sign_extends():
    out = run("v: i8, ", "out[0] = i32::from(v) as u32;", [0xFE])
    assert to_signed(out)[0] == -2


def test_from_lossy_conversion_is_rejected():
    with pytest.raises(OxideError, match=r"the trait `From<u32>` is not implemented for `u16`"):
        build(kernel("v: u32", "let x = u16::from(v);"))


def test_into_takes_the_expected_type():
    assert run("b: u8, ", "let w: u32 = b.into();\nout[0] = w + 1;", [255])[0] == 256


def test_from_ne_bytes_is_little_endian():
    body = "let b = [x, y, z, w];\nout[0] = u32::from_ne_bytes(b);\nout[1] = u32::from_be_bytes(b);"
    assert run("x: u8, y: u8, z: u8, w: u8, ", body, [1, 2, 3, 4])[:2] == [0x0403_0201, 0x0102_0304]


def test_to_ne_bytes_and_back():
    body = "let b = v.to_ne_bytes();\nout[0] = b[0] as u32;\nout[1] = b[3] as u32;\nout[2] = u32::from_le_bytes(b);"
    assert run("v: u32, ", body, [0xAABB_CCDD])[:3] == [0xDD, 0xAA, 0xAABB_CCDD]


def test_f32_byte_round_trip():
    body = "let b = x.to_ne_bytes();\nout[0] = u32::from_ne_bytes(b);"
    assert run("x: f32, ", body, [1.0])[0] == 0x3F80_0000


def test_swap_bytes_and_reverse_bits():
    body = "out[0] = v.swap_bytes();\nout[1] = v.reverse_bits();"
    assert run("v: u32, ", body, [0x0000_0001])[:2] == [0x0100_0000, 0x8000_0000]


def test_bool_then_some():
    body = "let o = c.then_some(v);\nout[0] = o.unwrap_or(99);"
    assert run("c: bool, v: u32, ", body, [True, 5])[0] == 5
    assert run("c: bool, v: u32, ", body, [False, 5])[0] == 99


# Integer methods ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("a, b, want", [(200, 2, (144, 1)), (15, 17, (255, 0)), (16, 16, (0, 1))])
def test_overflowing_mul_u8(a, b, want):
    body = "let (r, o) = a.overflowing_mul(b);\nout[0] = r as u32;\nout[1] = o as u32;"
    assert tuple(run("a: u8, b: u8, ", body, [a, b])[:2]) == want


@pytest.mark.parametrize("a, b, overflow", [(-128, -1, 1), (-64, 2, 0), (64, 2, 1), (-16, 8, 0)])
def test_overflowing_mul_i8(a, b, overflow):
    body = "let (r, o) = a.overflowing_mul(b);\nout[0] = r as u8 as u32;\nout[1] = o as u32;"
    r, o = run("a: i8, b: i8, ", body, [a & 0xFF, b & 0xFF])[:2]
    assert (r, o) == ((a * b) & 0xFF, overflow)


def test_checked_arithmetic_is_none_on_overflow():
    body = ("out[0] = a.checked_add(b).unwrap_or(7);\nout[1] = a.checked_sub(b).unwrap_or(7);\n"
            "out[2] = a.checked_mul(b).unwrap_or(7);\nout[3] = a.checked_div(c).unwrap_or(7);\n"
            "out[4] = a.checked_rem(c).unwrap_or(7);\nout[5] = 1u32.checked_shl(c).unwrap_or(7);\n"
            "out[6] = a.checked_neg().unwrap_or(7);")
    assert run("a: u32, b: u32, c: u32, ", body, [U32_MAX, 2, 0])[:7] == [7, U32_MAX - 2, 7, 7, 7, 1, 7]
    assert run("a: u32, b: u32, c: u32, ", body, [10, 3, 40])[:7] == [13, 7, 30, 0, 10, 7, 7]


def test_checked_signed_division_overflow_is_none():
    body = "out[0] = a.checked_div(b).unwrap_or(7) as u32;\nout[1] = a.checked_neg().unwrap_or(7) as u32;"
    assert run("a: i32, b: i32, ", body, [0x8000_0000, U32_MAX])[:2] == [7, 7]
    assert to_signed(run("a: i32, b: i32, ", body, [9, U32_MAX])[:2]) == [-9, -9]


def test_saturating_arithmetic_clamps():
    body = ("out[0] = a.saturating_add(b);\nout[1] = b.saturating_sub(a);\nout[2] = a.saturating_mul(b);\n"
            "out[3] = (x.saturating_add(y)) as u32;\nout[4] = (x.saturating_sub(-y)) as u32;"
            "\nout[5] = (x.saturating_mul(-y)) as u32;")
    out = run("a: u32, b: u32, x: i32, y: i32, ", body, [U32_MAX - 1, 5, 0x7FFF_FFF0, 0x100])[:6]
    assert out[:3] == [U32_MAX, 0, U32_MAX]
    assert to_signed(out[3:]) == [0x7FFF_FFFF, 0x7FFF_FFFF, -0x8000_0000]


def test_carrying_mul_add_u32_and_u64():
    body = ("let (lo, hi) = a.carrying_mul_add(b, c, d);\nout[0] = lo;\nout[1] = hi;\n"
            "let (l, h) = x.carrying_mul_add(y, z, w);\nout[2] = l as u32;\nout[3] = (l >> 32) as u32;\n"
            "out[4] = h as u32;\nout[5] = (h >> 32) as u32;\nlet (m, n) = a.widening_mul(b);\nout[6] = m;\n"
            "out[7] = n;")
    big = (1 << 64) - 1
    out = run("a: u32, b: u32, c: u32, d: u32, x: u64, y: u64, z: u64, w: u64, ", body,
              [U32_MAX, U32_MAX, U32_MAX, U32_MAX, big, big, big, big])
    full32 = U32_MAX * U32_MAX + 2 * U32_MAX
    full64 = big * big + 2 * big
    assert out[:2] == [full32 & U32_MAX, full32 >> 32]
    assert out[2:6] == [(full64 >> s) & U32_MAX for s in (0, 32, 64, 96)]
    assert out[6:8] == [(U32_MAX * U32_MAX) & U32_MAX, (U32_MAX * U32_MAX) >> 32]


def test_signed_carrying_mul_add_has_an_unsigned_low_half():
    text = ir(kernel("s: i32, t: i32, mut o: DisjointSlice<u32>",
                     "let (low, high) = s.carrying_mul_add(t, 0, 0);\nlet x: u32 = low;\nlet y: i32 = high;"))
    assert "arith.extsi" in text and "arith.shrsi" in text and "i64" in text
    body = "let (low, high) = s.carrying_mul_add(t, 0, 0);\nout[0] = low;\nout[1] = high as u32;"
    full = -3 * 0x4000_0000
    assert run("s: i32, t: i32, ", body, [(-3) & U32_MAX, 0x4000_0000])[:2] == [full & U32_MAX, (full >> 32) & U32_MAX]


def test_abs_diff_unsigned_abs_signum():
    body = ("out[0] = a.abs_diff(b);\nout[1] = x.abs_diff(y);\nout[2] = x.unsigned_abs();\n"
            "out[3] = x.signum() as u32;\nout[4] = x.is_negative() as u32;")
    out = run("a: u32, b: u32, x: i32, y: i32, ", body, [3, 10, 0x8000_0000, 0x7FFF_FFFF])[:5]
    assert out == [7, U32_MAX, 0x8000_0000, U32_MAX, 1]


def test_cast_unsigned_and_signed_keep_the_bits():
    body = "out[0] = x.cast_unsigned();\nout[1] = (a.cast_signed() < 0) as u32;"
    assert run("x: i32, a: u32, ", body, [U32_MAX, 0x8000_0000])[:2] == [U32_MAX, 1]


def test_wrapping_shifts_and_neg_and_ones():
    body = ("out[0] = 1u32.wrapping_shl(33);\nout[1] = a.wrapping_neg();\nout[2] = a.leading_ones();\n"
            "out[3] = a.trailing_ones();\nout[4] = a.count_zeros();")
    assert run("a: u32, ", body, [0xF000_000F])[:5] == [2, 0x0FFF_FFF1, 4, 4, 24]


def test_i128_arithmetic():
    body = "let w = (a as u128) * (b as u128) + 1;\nout[0] = (w >> 64) as u32;\nout[1] = w as u32;"
    a = b = (1 << 64) - 1
    w = a * b + 1
    assert run("a: u64, b: u64, ", body, [a, b])[:2] == [(w >> 64) & U32_MAX, w & U32_MAX]


def test_u128_literal_suffix_and_from():
    assert run("a: u64, ", "let w = u128::from(a) << 1u128;\nout[0] = (w >> 64) as u32;", [1 << 63])[0] == 1


# Address casts ---------------------------------------------------------------------------------------------
def test_pointer_to_integer_is_the_generic_address():
    text = ir(kernel("p: *const u32, mut out: DisjointSlice<u64>",
                     "let a = p as u64;\nlet q = a as *const u32;\nlet n = p.is_null();"))
    assert '"simt.ptr_to_int"' in text and '"simt.int_to_ptr"' in text
    assert "!simt.ptr<i32, 0 : i64>" in text  # an integer comes back as a generic pointer


def test_shared_array_address_cast():
    text = ir("#[kernel]\npub unsafe fn k(mut out: DisjointSlice<u64>) {\n"
              "static mut S: SharedArray<u8, 256, 128> = SharedArray::UNINIT;\n"
              "let a = &raw const S as u64;\nlet b = &raw const S as *const u8 as u64;\n}\n")
    assert text.count('"simt.shared_ptr"') == 2 and text.count('"simt.ptr_to_int"') == 2


def test_pointer_offset_from_divides_by_the_element_size():
    text = ir(kernel("p: *const u32, q: *const u32, mut out: DisjointSlice<u64>",
                     "let d = unsafe { q.offset_from(p) };"))
    assert "arith.divsi" in text and "arith.constant 4 : i64" in text


def test_pointer_cast_takes_the_annotated_type():
    text = ir(kernel("p: *const u32", "let q: *const u8 = p.cast();\nlet r = p.cast::<f32>();"))
    assert "!simt.ptr<i8, 1 : i64>" in text and "!simt.ptr<f32, 1 : i64>" in text


# libm and libdevice ----------------------------------------------------------------------------------------------
def test_libm_functions_call_libdevice_by_type():
    text = ir(kernel("x: f32, y: f64", "let a = libm::sinf(x);\nlet b = libm::pow(y, y);\nlet c = libm::fabsf(x);\n"
                     "let (s, co) = libm::sincosf(x);"))
    assert 'fn = "sin"' in text and 'fn = "pow"' in text and "math.absf" in text and 'fn = "cos"' in text
    assert '(f64, f64) -> f64' in text


def test_nv_extern_functions_are_libdevice_and_unsafe():
    src = 'unsafe extern "C" {\n    fn __nv_asinf(x: f32) -> f32;\n}\n' + kernel(
        "x: f32", "let a = unsafe { __nv_asinf(x) };")
    assert 'fn = "asin"' in ir(src)
    with pytest.raises(OxideError, match="requires an `unsafe` block"):
        build(kernel("x: f32", "let a = __nv_asinf(x);"))


def test_unknown_libm_function_is_located():
    with pytest.raises(OxideError, match=r"k.rs:3:9: error: cannot find function `libm::frexpf`"):
        build(kernel("x: f32", "let a = libm::frexpf(x);"))


# f16 -----------------------------------------------------------------------------------------------------
def test_f16_arithmetic_and_conversions():
    text = ir(kernel("mut out: DisjointSlice<u32>",
                     "let one = f16::from_bits(0x3c00);\nlet two = 2.0f16;\nlet s = one + two;\n"
                     "let w = s as f32;\nlet n = (w + 1.0) as f16;\nlet bits = n.to_bits();\nlet m = f16::MAX;"))
    assert "f16" in text and "arith.extf" in text and "arith.truncf" in text
    assert "6.550400e+04 : f16" in text


def test_f16_printf_widens_to_f64():
    text = ir(kernel("x: f32", 'let h = x as f16;\ngpu_printf!("{}\\n", h);'))
    assert "arith.extf" in text and "f16 to f64" in text


def test_f16_from_bits_is_a_bitcast():
    assert "arith.bitcast %arg0 : i16 to f16" in ir(kernel("b: u16", "let h = f16::from_bits(b);"))


# char ----------------------------------------------------------------------------------------------------------
def test_char_literals_are_code_points():
    body = ("let a: char = 'A';\nlet w = '\\u{1f980}';\nlet n = '\\n';\nlet b = b'z';\n"
            "out[0] = a as u32;\nout[1] = w as u32;\nout[2] = n as u32;\nout[3] = b as u32;")
    assert run("", body, [])[:4] == [65, 0x1F980, 10, 122]


def test_char_comparisons_and_patterns():
    body = ("let c = char::from(b);\nout[0] = (c < 'b') as u32;\n"
            "out[1] = match c { 'a' => 1, 'a'..='z' => 2, _ => 3 };")
    assert run("b: u8, ", body, [ord("a")])[:2] == [1, 1]
    assert run("b: u8, ", body, [ord("q")])[:2] == [0, 2]


def test_char_from_u32_rejects_surrogates_and_out_of_range():
    body = "out[0] = char::from_u32(x).map_or(7, |c| c as u32);"
    assert run("x: u32, ", body, [0x41])[0] == 0x41
    assert run("x: u32, ", body, [0xD800])[0] == 7
    assert run("x: u32, ", body, [0x110000])[0] == 7


def test_char_ascii_methods_and_to_digit():
    body = ("let c = char::from(b);\nout[0] = c.is_ascii_digit() as u32;\nout[1] = c.to_ascii_uppercase() as u32;\n"
            "out[2] = c.to_digit(16).unwrap_or(99);\nout[3] = c.len_utf8() as u32;\nout[4] = b.is_ascii_alphabetic() as u32;")
    assert run("b: u8, ", body, [ord("f")])[:5] == [0, ord("F"), 15, 1, 1]
    assert run("b: u8, ", body, [ord("7")])[:5] == [1, ord("7"), 7, 1, 0]
    assert run("b: u8, ", body, [ord("g")])[:5] == [0, ord("G"), 99, 1, 1]


def test_char_arithmetic_is_rejected():
    with pytest.raises(OxideError, match=r"no operator `\+` for `char`"):
        build(kernel("", "let c = 'a' + 1;"))


def test_from_u16_to_char_is_rejected():
    with pytest.raises(OxideError, match=r"the trait `From<u16>` is not implemented for `char`"):
        build(kernel("x: u16", "let c = char::from(x);"))


# size_of, default, core::f32::math -----------------------------------------------------------------------------
def test_size_of_and_align_of():
    body = ("out[0] = core::mem::size_of::<char>() as u32;\nout[1] = core::mem::size_of::<[u16; 3]>() as u32;\n"
            "out[2] = core::mem::size_of::<(u8, u32)>() as u32;\nout[3] = core::mem::align_of::<u64>() as u32;\n"
            "out[4] = core::mem::size_of::<u128>() as u32;\nout[5] = core::mem::size_of::<bool>() as u32;")
    assert run("", body, [])[:6] == [4, 6, 8, 8, 16, 1]



def test_default_of_primitives_and_generics():
    extra = "fn zero<T: Default>(_like: T) -> T { T::default() }"
    body = "let a = zero(7u32);\nlet b = u32::default();\nout[0] = a + b + 5;"
    assert run("", body, [], extra=extra)[0] == 5


def test_core_float_math_is_the_method():
    text = ir(kernel("x: f32, y: f64", "let a = core::f32::math::floor(x);\nlet b = core::f64::math::mul_add(y, y, y);"))
    assert "math.floor" in text and "math.fma" in text


# bool::then, rows of a DisjointSlice<[T; N]> -----------------------------------------------------------------------
def test_bool_then_runs_the_closure_only_when_true():
    body = "let mut calls = 0u32;\nlet o = c.then(|| { calls += 1; v * 2 });\nout[0] = o.unwrap_or(99);\nout[1] = calls;"
    assert run("c: bool, v: u32, ", body, [True, 5])[:2] == [10, 1]
    assert run("c: bool, v: u32, ", body, [False, 5])[:2] == [99, 0]


def test_disjoint_slice_of_arrays_writes_rows():
    text = ir(kernel("mut out: DisjointSlice<[f32; 7]>",
                     "if let Some(row) = out.get_mut(thread::index_1d()) {\nrow[0] = 1.0;\nrow[6] += 2.0;\n"
                     "let copy = *row;\n*row = copy;\n}"))
    assert '!simt.disjoint<!llvm.array<7 x f32>, "1d">' in text
    assert '"simt.ref_ptr"' in text and '"simt.ptr_cast"' in text and '"simt.ptr_store"' in text
    assert "simt.trap" in text  # a row index past N traps, as Rust's indexing panics



# MaybeUninit ---------------------------------------------------------------------------------------------------
def test_maybe_uninit_new_and_assume_init():
    body = "let m = core::mem::MaybeUninit::new(v + 1);\nout[0] = unsafe { m.assume_init() };"
    assert run("v: u32, ", body, [41])[0] == 42


def test_assume_init_of_an_uninhabited_type_traps():
    body = ("if f != 0 {\nunsafe { core::mem::MaybeUninit::<core::convert::Infallible>::uninit().assume_init() };\n}\n"
            "out[0] = 1;")
    assert run("f: u32, ", body, [0])[0] == 1
    with pytest.raises(Trap):
        run("f: u32, ", body, [1])


def test_assume_init_needs_unsafe():
    with pytest.raises(OxideError, match="requires an `unsafe` block"):
        build(kernel("", "let m: core::mem::MaybeUninit<u32> = core::mem::MaybeUninit::uninit();\nlet v = m.assume_init();"))


def test_nonnull_round_trips_through_transmute():
    extra = ("fn to_nonnull(a: usize) -> core::ptr::NonNull<u8> { unsafe { core::mem::transmute::<usize, "
             "core::ptr::NonNull<u8>>(a) } }\n"
             "fn from_nonnull(p: core::ptr::NonNull<u8>) -> usize { unsafe { core::mem::transmute::<core::ptr::NonNull<u8>, "
             "usize>(p) } }")
    text = ir(kernel("a: u64, mut out: DisjointSlice<u64>", "let back = from_nonnull(to_nonnull(a as usize));", extra))
    assert '"simt.int_to_ptr"' in text and '"simt.ptr_to_int"' in text and "!simt.ptr<i8, 0 : i64>" in text


def test_array_from_fn_and_map():
    body = ("let g: [u32; 4] = core::array::from_fn(|i| t + i as u32);\nlet m = g.map(|v| v * 3 + 1);\n"
            "out[0] = g[3];\nout[1] = m[0];\nout[2] = m[3];")
    assert run("t: u32, ", body, [10])[:3] == [13, 31, 40]


def test_array_from_fn_needs_the_length():
    with pytest.raises(OxideError, match="`array::from_fn` needs its array type from context"):
        build(kernel("t: u32", "let g = core::array::from_fn(|i| t);"))


# CuSimd, match arm typing --------------------------------------------------------------------------------------
def test_cusimd_lanes():
    body = ("let s = CuSimd::<u32, 4>::new([10, 20, 30, 40]);\nout[0] = s[i as usize];\nout[1] = s.x() + s.w();\n"
            "out[2] = s.get::<2>();\nout[3] = s.at(1);\nlet (a, b) = s.xy();\nout[4] = a + b;\nout[5] = s.to_array()[3];")
    assert run("i: u32, ", body, [2])[:6] == [30, 50, 30, 20, 30, 40]


def test_cusimd_lane_out_of_range_is_an_error():
    with pytest.raises(OxideError, match="lane 3 is out of range for `CuSimd<f32, 2>`"):
        build(kernel("", "let s = CuSimd::<f32, 2>::new([1.0, 2.0]);\nlet w = s.w();"))


def test_match_arm_literals_take_the_first_arm_type():
    body = "let v = match i { 0 => x, 1 => x * 2.0, _ => 0.5 };\nout[0] = v;"
    assert run("i: u32, x: f32, ", body, [1, 1.5], ty="f32")[0] == 3.0
    assert run("i: u32, x: f32, ", body, [7, 1.5], ty="f32")[0] == 0.5


def test_array_kernel_parameter_is_flattened_and_has_a_length():
    src = ("#[derive(Clone, Copy)]\npub struct Shape { counts: [u32; 3], periodic: [bool; 2] }\n"
           "#[kernel]\npub unsafe fn k(s: Shape, w: [u32; 2], out: &mut [u32]) {\n"
           "out[0] = s.counts[2] + s.counts.len() as u32 + w[1] + s.periodic[1] as u32;\n}\n")
    result = build(src)
    (info,) = result.kernels
    assert info.params[0].mlir_types == ["i32", "i32", "i32", "i1", "i1"] and info.params[1].mlir_types == ["i32", "i32"]
    out = [0]
    from tests.unit.frontends.simt.simt_interp import run_kernel

    run_kernel(result, [5, 6, 7, 0, 1, 8, 9, out])
    assert out == [7 + 3 + 9 + 1]


def test_transmute_of_a_byte_array_is_its_little_endian_word():
    body = "let b: [u8; 4] = [1, 2, 3, v];\nout[0] = unsafe { core::mem::transmute::<[u8; 4], u32>(b) };"
    assert run("v: u8, ", body, [4])[0] == 0x04030201
