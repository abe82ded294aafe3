"""The tile frontend's rejections: each bad kernel gets one located, rustc-style error (k.rs:line:col and a
message saying what to do), never a traceback. In `kernel(...)` sources the body starts on line 6."""

from __future__ import annotations

import pytest

from tests.unit.frontends.tile.helpers import kernel, reject

ROW = "z: &mut Tensor<f32, {[4, 128]}>, x: &Tensor<f32, {[-1, -1]}>"


# Ownership ----------------------------------------------------------------------------------------------
def test_store_to_another_blocks_tile_is_a_compile_error():
    src = kernel("let pm = z.partition_mut(const_shape![2, 64]);\nlet t = constant(0.0f32, const_shape![2, 64]);\n"
                 "pm.store(t, [0, 1]);\npm.store(t, [2, 0]);", params=ROW)
    reject(src, 9, 13, "outside this block's own tile (a `partition_mut` of [2, 2] tiles): a block writes only its own "
                       "tile; use an index in 0..2")


def test_store_to_an_input_is_an_error():
    reject(kernel("x.store(constant(0.0f32, const_shape![128]));", params="z: &mut Tensor<f32, {[128]}>, "
                  "x: &Tensor<f32, {[128]}>"), 6, 1, "inputs are read-only")
    reject(kernel("let p = x.partition_mut(const_shape![64]);"), 6, 9, "inputs are read-only")


def test_own_store_takes_no_index():
    reject(kernel("z.store(constant(0.0f32, const_shape![128]), [1]);"), 6, 1, "takes no index")


def test_stored_tile_must_match_the_output_tile():
    reject(kernel("z.store(constant(0.0f32, const_shape![64]));"), 6, 9,
           "this stores a `Tile<f32, {[64]}>` where the tile is `Tile<f32, {[128]}>`")
    reject(kernel("z.store(constant(0i32, const_shape![128]));"), 6, 9, "where the tile is `Tile<f32, {[128]}>`")


def test_partition_mut_must_split_the_own_tile():
    reject(kernel("let pm = z.partition_mut(const_shape![3, 64]);", params=ROW), 6, 26, "must split the block's own "
                                                                                       "tile [4, 128] evenly")


# Type checking ------------------------------------------------------------------------------------------
def test_binary_op_between_different_shapes_says_broadcast():
    src = kernel("let a = constant(1.0f32, const_shape![128]);\nlet b = constant(1.0f32, const_shape![1]);\n"
                 "z.store(a + b);")
    reject(src, 8, 9, "`+` between tiles of shapes [128] and [1]; tile operators need one shape: `broadcast`")


def test_tile_scalar_mix_says_broadcast():
    reject(kernel("let a = constant(1.0f32, const_shape![128]);\nz.store(a * 2.0f32);"), 7, 9,
           "`*` between a tile and a scalar (`f32`); lift the scalar with `x.broadcast(shape)`")


def test_element_type_mismatch():
    src = kernel("let a = constant(1.0f32, const_shape![128]);\nlet b = constant(1i32, const_shape![128]);\n"
                 "z.store(a + b);")
    reject(src, 8, 9, "between tiles of `f32` and `i32`; convert one with `convert_tile`")


def test_mma_shape_mismatch():
    src = kernel("let a = constant(1.0f32, const_shape![64, 32]);\nlet b = constant(1.0f32, const_shape![16, 64]);\n"
                 "z.store(mma(a, b, constant(0.0f32, const_shape![64, 64])));",
                 params="z: &mut Tensor<f32, {[64, 64]}>")
    reject(src, 8, 9, "mma needs a: MxK, b: KxN, acc: MxN; got [64, 32], [16, 64], [64, 64]")


def test_mma_element_types():
    src = kernel("let a = constant(1i32, const_shape![64, 32]);\nlet b = constant(1i32, const_shape![32, 64]);\n"
                 "z.store(mma(a, b, constant(0.0f32, const_shape![64, 64])));",
                 params="z: &mut Tensor<f32, {[64, 64]}>")
    reject(src, 8, 9, "mma does not take i32 x i32 -> f32")


def test_non_power_of_two_tile():
    reject(kernel("let a = constant(1.0f32, const_shape![96]);"), 6, 26, "every tile dimension must be a power of two")
    reject(kernel("", params="z: &mut Tensor<f32, {[96]}>"), 5, 13, "every tile dimension must be a power of two")


def test_broadcast_rules():
    reject(kernel("let a = constant(1.0f32, const_shape![64]);\nlet b = a.broadcast(const_shape![128]);"), 7, 9,
           "cannot broadcast a tile of shape [64] to [128]")


def test_if_branches_must_agree():
    src = kernel("let (b, _, _) = get_tile_block_id();\nlet t = if b > 0 { constant(1.0f32, const_shape![128]) } "
                 "else { constant(1.0f32, const_shape![64]) };")
    reject(src, 7, 9, "mismatched types: the `else` branch is `Tile<f32, {[64]}>`, expected `Tile<f32, {[128]}>`")


def test_loop_carried_variable_keeps_its_type():
    src = kernel("let mut t = constant(1.0f32, const_shape![128]);\nfor i in 0..4 { t = reduce_sum(t, 0); }")
    reject(src, 7, 21, "the new value of `t` is `Tile<f32, {[]}>`, expected `Tile<f32, {[128]}>`")


def test_assign_to_immutable():
    reject(kernel("let n = 1i32;\n"
                  "n = 2;"), 7, 1, "cannot assign twice to immutable variable `n`; declare it `let mut n`")


def test_unknown_function():
    reject(kernel("let t = softplus(1.0f32);"), 6, 9, "cannot find function `softplus`")


def test_convert_needs_a_target():
    reject(kernel("let t = convert_tile(constant(1i32, const_shape![128]));"), 6, 9, "needs its target type")


def test_extract_needs_a_result_shape_and_a_valid_index():
    reject(kernel("let t = extract(constant(1i32, const_shape![128]), [0]);"), 6, 9,
           "takes its result shape from the type")
    reject(kernel("let t: Tile<i32, {[64]}> = extract(constant(1i32, const_shape![128]), [2]);"), 6, 71,
           "sub-tile index 2 along dimension 0 is outside 0..2")


def test_shape_must_be_constant():
    reject(kernel("let (b, _, _) = get_tile_block_id();\nlet t = constant(1.0f32, [b, 2]);"), 7, 26,
           "a tile shape must be known at compile time")


# Entries and parameters ---------------------------------------------------------------------------------
def test_unknown_entry_option():
    reject(kernel("", entry="#[cutile::entry(fast_math = true)]"), 4, 5, "unknown #[cutile::entry] option `fast_math`")


def test_unknown_optimization_hint():
    reject(kernel("", entry="#[cutile::entry(optimization_hints = (sm_90 = (warps = 4)))]"), 4, 5,
           "unknown optimization hint `warps`")


def test_unchecked_accesses_needs_unsafe_fn():
    reject(kernel("", entry="#[cutile::entry(unchecked_accesses)]"), 4, 5,
           "`unchecked_accesses` turns off the safety checks, so the kernel must be an `unsafe fn`")


def test_raw_pointer_needs_unsafe_fn():
    reject(kernel("", params="z: &mut Tensor<f32, {[128]}>, p: *mut f32"), 5, 43, "a raw pointer parameter needs "
                                                                                  "an `unsafe fn` kernel")


@pytest.mark.parametrize("params, col, message", [
    ("z: &mut Tensor<f32, {[-1]}>", 13, "an output's tile shape is static"),
    ("z: &mut Tensor<f32, {[2, 2, 2, 2]}>", 13, "an output tile has rank 1 to 3"),
    ("z: Tensor<f32, {[128]}>", 13, "a tensor is passed by reference"),
    ("z: &mut Tensor<usize, {[128]}>", 25, "`usize` is not a tile element type"),
    ("z: Tile<f32, {[128]}>", 13, "a kernel takes tensors, not tiles"),
])
def test_bad_parameters(params, col, message):
    reject(kernel("", params=params), 5, col, message)


def test_generic_instance_must_fit():
    src = kernel("", params="z: &mut Tensor<E, {[128]}>", generics="<E: ElementType>")
    reject(src, 5, 10, "`E` of `k` is instantiated with `usize`", {"k": [["usize"]]})


def test_kernel_returns_nothing():
    src = kernel("", params="z: &mut Tensor<f32, {[128]}>").replace("{[128]}>) {", "{[128]}>) -> f32 {")
    reject(src, 5, 43, "a tile kernel returns nothing")


@pytest.mark.parametrize("body, col, message", [
    ("return;", 1, "`return` is not supported in tile kernels"),
    ("let v = match 1i32 { _ => 2i32 };", 9, "`match` is not supported"),
    ("loop { }", 1, "this `loop` has no `break`"),
    ("let s = \"hi\";", 9, "string literals are not supported"),
])
def test_unsupported_constructs(body, col, message):
    reject(kernel(body), 6, col, message)


def test_syntax_error_is_located():
    reject(kernel("let x = ;"), 6, 7, "syntax error")


def test_calling_an_entry_is_an_error():
    reject(kernel("k(z, x);"), 6, 1, "is a `#[cutile::entry]` kernel")


def test_only_scalars_and_tiles_change_inside_control_flow():
    src = kernel("let mut p = x.partition(const_shape![64]);\nlet (b, _, _) = get_tile_block_id();\n"
                 "if b > 0 { p = x.partition(const_shape![64]); }")
    reject(src, 8, 1, "`p` is a `Partition<f32, {[64]}>`, which cannot change inside an `if` or a loop")


def test_break_to_an_outer_loop_is_located():
    src = kernel("let mut c = 0i32;\n'outer: for i in 0..3 { for j in 0..3 { if j == 1 { break 'outer; } c += 1; } }")
    reject(src, 7, 53, "`break 'outer`/`continue 'outer` to an outer loop is not supported in tile kernels")


def test_reduce_closure_must_be_a_known_combination():
    src = kernel("let t = constant(1.0f32, const_shape![128]);\nlet s = reduce(t, 0, 0.0f32, |a, b| a - b);")
    reject(src, 7, 30, "the combining closure must be `|a, b| a + b`, `a * b`, `max(a, b)` or `min(a, b)`")
    src = kernel("let t = constant(1.0f32, const_shape![128]);\nlet s = reduce(t, 0, 1.0f32, |a, b| a + b);")
    reject(src, 7, 22, "the identity of a `sum` combination is 0")


def test_a_closure_is_no_value():
    reject(kernel("let f = |a: f32, b: f32| a + b;\nlet g = f + 1.0f32;"), 7, 9, "`+` is not defined on `closure`")


@pytest.mark.parametrize("args, message", [
    (["[64]"], "instantiated with `[64]`, which does not fit its type"),
    (["64"], "instantiated with `64`, which does not fit its type"),
    (["[64, 64]", "1"], "kernel `k` has 1 generic parameter(s) (S), 2 given"),
])
def test_shape_generic_instances_must_fit(args, message):
    src = kernel("", params="z: &mut Tensor<f32, S>", generics="<const S: [i32; 2]>")
    diag_line, diag_col = (5, 10) if "does not fit" in message else (5, 5)
    reject(src, diag_line, diag_col, message, {"k": [args]})


def test_names_are_defined_once_across_modules():
    src = ("#[cutile::module]\nmod a {\n    use cutile::core::*;\n    fn helper() -> i32 { 1 }\n}\n"
           "#[cutile::module]\nmod b {\n    use cutile::core::*;\n    fn helper() -> i32 { 2 }\n}\n")
    reject(src, 9, 5, "`helper` is defined twice (first at k.rs:4:5)")


def test_an_instance_is_requested_once():
    src = kernel("", params="z: &mut Tensor<E, {[128]}>", generics="<E: ElementType>")
    reject(src, 5, 5, "two kernel instances are both named `k_f32`", {"k": [["f32"], ["f32"]]})


def test_integer_division_by_a_zero_constant():
    reject(kernel("let a = 5i32 % 0;"), 6, 9, "this `%` divides by zero")


def test_shape_of_non_integers():
    reject(kernel("let t = constant(1.0f32, [2.0, 2.0]);"), 6, 26, "a tile shape must be known at compile time")


@pytest.mark.parametrize("call, message", [
    ("addi(t, t)", "`addi` is for integer tiles"), ("negi(t)", "`negi` is for integer tiles"),
    ("mulf(i, i)", "`mulf` is for float tiles"), ("negf(i)", "`negf` is for float tiles"),
    ("true_div(i, i)", "`true_div` is for float tiles"), ("exp(i)", "`exp` is for float tiles"),
])
def test_function_forms_check_their_element_family(call, message):
    src = kernel("let t = constant(1.0f32, const_shape![128]);\nlet i = iota::<i32>(const_shape![128]);\n"
                 f"let r = {call};")
    reject(src, 8, 9, message)
