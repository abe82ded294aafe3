"""Whole kernels in the cutile-rs style (cutile_style.rs) compile to verified tile IR."""

from __future__ import annotations

import re
from pathlib import Path

from tests.unit.frontends.tile.helpers import build, check

SOURCE = (Path(__file__).parent / "cutile_style.rs").read_text()
INSTANCES = {"saxpy": [["[4, 64]"]], "gemm": [["f32", "64", "64", "16", "256"]], "softmax": [["4", "128"]],
             "attention_like": [["64", "32", "64", "1"], ["64", "32", "64", "0"]]}


def _functions(text: str) -> dict[str, str]:
    """The text of each gpu.func, by name."""
    parts = re.split(r"(?=gpu\.func @)", text)
    return {re.match(r"gpu\.func @(\w+)", p).group(1): p for p in parts if p.startswith("gpu.func")}


def test_cutile_style_kernels_compile():
    result = build(SOURCE, INSTANCES, name="cutile_style.rs")
    assert [k.entry for k in result.kernels] == ["saxpy_4x64", "gemm_f32_64_64_16_256", "softmax_4_128",
                                                 "attention_like_64_32_64_1", "attention_like_64_32_64_0"]
    funcs = _functions(str(result.module))
    check(funcs["saxpy_4x64"], r"%arg0: f32, %arg1: !tile.view<f32, array<i64: -1, -1>>, %arg2: "
                               r"!tile.view_mut<f32, array<i64: 4, 64>>", r'"tile.splat"\(%arg0\)',
          r'"tile.load_own"\(%arg2\)', r"arith.mulf", r"arith.addf", r'"tile.store_own"\(%arg2')
    # K / BK = 256 / 16 folds to the loop bound; f32 inputs go to mma (as tf32).
    check(funcs["gemm_f32_64_64_16_256"], r"%c16_i32 = arith.constant 16 : i32", r"scf.for .* to %c16_i32",
          r'"tile.mma".* -> tensor<64x64xf32>')
    causal, full = funcs["attention_like_64_32_64_1"], funcs["attention_like_64_32_64_0"]
    assert '"tile.num_tiles"' not in causal and '"tile.num_tiles"' in full
    for text in (causal, full):
        check(text, r"scf.for .* -> \(tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>\)", r'"tile.permute"',
              r'"tile.mma".* -> tensor<64x32xf32>', r'kind = "max"', r"math.exp", r"arith.truncf", r'"tile.mma"',
              r"scf.yield", r"arith.divf", r'"tile.store_own"')
