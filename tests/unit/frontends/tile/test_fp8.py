"""fp8 element types in the tile frontend (`f8e4m3fn`, `f8e5m2`): loads, stores, conversions and mma reach the
IR as f8E4M3FN / f8E5M2; arithmetic and scalars are located errors naming the op and the type, with the
conversion to use. In `kernel(...)` sources the body starts on line 6."""

from __future__ import annotations

import pytest

from tests.unit.frontends.tile.helpers import check, ir_text, kernel, reject

FP8 = "z: &mut Tensor<f32, {[128]}>, x: &Tensor<f8e4m3fn, {[-1]}>"
LOAD = "let t = x.partition(const_shape![128]).load([0]);\n"


@pytest.mark.parametrize("elem,mlir", [("f8e4m3fn", "f8E4M3FN"), ("f8e5m2", "f8E5M2")])
def test_fp8_loads_convert_and_store(elem, mlir):
    src = kernel(LOAD + "let q = convert_tile::<f32>(t);\nz.store(q);",
                 params=f"z: &mut Tensor<f32, {{[128]}}>, x: &Tensor<{elem}, {{[-1]}}>")
    check(ir_text(src), rf"!tile.view<{mlir}", rf'"tile.load".* -> tensor<128x{mlir}>',
          rf"arith.extf .* tensor<128x{mlir}> to tensor<128xf32>")


def test_conversion_to_fp8_and_between_fp8_types():
    src = kernel("let t = x.partition(const_shape![128]).load([0]);\nlet q = convert_tile::<f8e4m3fn>(t);\n"
                 "z.store(convert_tile::<f8e5m2>(q));",
                 params="z: &mut Tensor<f8e5m2, {[128]}>, x: &Tensor<f32, {[-1]}>")
    check(ir_text(src), r"arith.truncf .* to tensor<128xf8E4M3FN>", r"arith.extf .* to tensor<128xf32>",
          r"arith.truncf .* to tensor<128xf8E5M2>")


@pytest.mark.parametrize("expr,col,op", [("t + t", 9, "`+`"), ("-t", 9, "`-`"), ("exp(t)", 9, "`exp`"),
                                         ("reduce_sum(t, 0)", 9, "`reduce_sum`"), ("maxf(t, t)", 9, "`maxf`")])
def test_arithmetic_on_fp8_is_a_located_error(expr, col, op):
    err = reject(kernel(LOAD + f"let r = {expr};", params=FP8), 7, col,
                 f"{op} is not defined on `Tile<f8e4m3fn, {{[128]}}>`: fp8 tiles are only loaded, stored")
    assert "convert_tile::<f32>(t)" in err.diagnostics[0].message


def test_fp8_scalars_are_a_located_error():
    reject(kernel("let s = convert_scalar::<f8e4m3fn>(1.0f32);", params=FP8), 6, 9,
           "fp8 (`f8e4m3fn`) is a tile element type")


def test_fp8_mma_needs_one_type_and_k_a_multiple_of_32():
    params = "z: &mut Tensor<f32, {[16, 16]}>, x: &Tensor<f8e4m3fn, {[-1, -1]}>, y: &Tensor<f8e5m2, {[-1, -1]}>"
    body = ("let a = x.partition(const_shape![16, {k}]).load([0, 0]);\nlet b = {src}.partition(const_shape![{k}, 16])"
            ".load([0, 0]);\nlet c = mma(a, b, constant(0.0f32, const_shape![16, 16]));")
    reject(kernel(body.format(k=32, src="y"), params=params), 8, 9, "mma does not take f8e4m3fn x f8e5m2 -> f32")
    reject(kernel(body.format(k=16, src="x"), params=params), 8, 9, "an fp8 mma needs K a multiple of 32")
