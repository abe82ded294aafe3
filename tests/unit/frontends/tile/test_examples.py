"""The tile examples (examples/tile/*.rs) compile to verified tile IR with the ops each is about."""

from __future__ import annotations

from pathlib import Path

import pytest

from oxide.frontends.tile import is_tile_source
from oxide.ir.parse import parse_source
from oxide.ir.verifier import python_verifier_failures
from tests.unit.frontends.tile.helpers import build, check, context

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "tile"

CASES = {
    "vecadd.rs": ({"add": [["[1024]"]]}, ["add_1024"], [r'"tile.load"', r"arith.addf", r'"tile.store_own"']),
    "softmax.rs": ({"softmax": [["4", "128"]]}, ["softmax_4_128"],
                   [r'"tile.dim"', r"arith.select", r'kind = "max"', r"math.exp", r'kind = "sum"', r"arith.divf",
                    r'"tile.store_own"']),
    "layernorm.rs": ({"layernorm": [["2", "256"]]}, ["layernorm_2_256"],
                     [r'kind = "sum"', r"arith.subf", r"arith.select", r'kind = "sum"', r"math.rsqrt", r"arith.mulf",
                      r"arith.addf", r'"tile.store_own"']),
    "rmsnorm.rs": ({"rmsnorm": [["2", "256"]]}, ["rmsnorm_2_256"],
                   [r"arith.mulf", r'kind = "sum"', r"math.rsqrt", r"arith.mulf", r'"tile.store_own"']),
    "autotune.rs": ({"rms_norm": [["256", "64"]]}, ["rms_norm_256_64"],
                    [r"scf.for", r'"tile.load"', r'kind = "sum"', r"math.rsqrt", r'"tile.make_partition_mut"',
                     r"scf.for", r'"tile.store"']),
    "gemm.rs": ({"gemm": [["64", "64", "32"], ["128", "128", "32"]]}, ["gemm_64_64_32", "gemm_128_128_32"],
                [r"scf.for .* -> \(tensor<64x64xf32>\)", r'"tile.load".* -> tensor<64x32xbf16>',
                 r'"tile.mma".* -> tensor<64x64xf32>', r'"tile.store_own"']),
    "gemm_precisions.rs": ({"gemm": [["bf16", "bf16", "64", "64", "64"], ["tf32", "f32", "64", "64", "32"]]},
                           ["gemm_bf16_bf16_64_64_64", "gemm_tf32_f32_64_64_32"],
                           [r'"tile.mma".* -> tensor<64x64xf32>', r"arith.truncf .* to tensor<64x64xbf16>",
                            r'"tile.store_own"', r'"tile.load".* -> tensor<64x32xf32>', r'"tile.mma"']),
    "batch_matmul.rs": ({"batch_matmul": [["bf16", "bf16", "64", "64", "64"]]}, ["batch_matmul_bf16_bf16_64_64_64"],
                        [r'"tile.block_id".*"z"', r'"tile.make_partition".* -> !tile.partition<bf16, array<i64: 1, 64, 64>>',
                         r'"tile.load".* -> tensor<1x64x64xbf16>', r'"tile.reshape".* -> tensor<64x64xbf16>',
                         r'"tile.mma".* -> tensor<64x64xf32>', r"arith.truncf .* to tensor<64x64xbf16>",
                         r'"tile.reshape".* -> tensor<1x64x64xbf16>', r'"tile.store_own"']),
    "gemm_fp8.rs": ({"gemm": [["f8e4m3fn", "bf16", "64", "64", "64"]], "quantize": [["f8e5m2", "128"]]},
                    ["gemm_f8e4m3fn_bf16_64_64_64", "quantize_f8e5m2_128"],
                    [r'"tile.load".* -> tensor<64x64xf8E4M3FN>', r'"tile.mma".* -> tensor<64x64xf32>',
                     r"arith.truncf .* to tensor<64x64xbf16>", r"arith.truncf .* to tensor<128xf8E5M2>",
                     r'"tile.store_own"']),
    "attention.rs": ({"attention": [["64", "64", "64"]], "attention_causal": [["64", "64", "64"]]},
                     ["attention_64_64_64", "attention_causal_64_64_64"],
                     [r'"tile.mma".* -> tensor<64x64xf32>', r'kind = "max"', r"math.exp2", r'kind = "sum"',
                      r"arith.truncf .* to tensor<64x64xbf16>", r'"tile.mma"', r"arith.divf", r'"tile.store_own"',
                      r"arith.cmpi sle"]),
    "persistent_gemm.rs": ({"gemm_persistent": [["f32", "64", "64", "32", "[2, 0]"]]}, ["gemm_persistent_f32_64_64_32_2x0"],
                           [r'"tile.mapped_work"', r"scf.for", r'"tile.mapped_item_tiles"', r"scf.for",
                            r'"tile.mapped_index"', r'"tile.mma".* -> tensor<64x64xf32>', r'"tile.mapped_store"']),
    "persistent_gemm_mixed.rs": ({"gemm_persistent_mixed": [["bf16", "bf16", "64", "64", "64", "[1, 1]"]]},
                                 ["gemm_persistent_mixed_bf16_bf16_64_64_64_1x1"],
                                 [r'"tile.mapped_work"', r"scf.for", r'"tile.mapped_index"',
                                  r'"tile.mma".* -> tensor<64x64xf32>', r"arith.truncf .* to tensor<64x64xbf16>",
                                  r'"tile.mapped_store"']),
    "histogram.rs": ({}, ["histogram"],
                     [r'"tile.load".* -> tensor<256xi32>', r'"tile.iota"', r"arith.cmpi slt",
                      r'"tile.broadcast".* -> tensor<256xi64>', r"arith.addi .* : tensor<256xi64>",
                      r'"tile.atomic_rmw".*kind = "add"']),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_example_compiles_to_verified_tile_ir(name):
    instances, entries, patterns = CASES[name]
    text = (EXAMPLES / name).read_text()
    assert is_tile_source(text)
    result = build(text, instances, name=name)
    assert [k.entry for k in result.kernels] == entries
    check(str(result.module), *patterns)
    # The printed IR (with locations) parses back and verifies: what oxide-opt, the lowering and the emulator read.
    with context():
        printed = result.module.operation.get_asm(enable_debug_info=True)
        parsed = parse_source(printed, name + ".mlir", context())
        assert parsed.module.operation.verify() and python_verifier_failures(parsed.module.operation) == []
        assert str(parsed.module) == str(result.module)


def test_every_example_is_covered():
    assert sorted(p.name for p in EXAMPLES.glob("*.rs")) == sorted(CASES)


def test_simt_source_is_not_tile_source():
    assert not is_tile_source((EXAMPLES.parents[0] / "rust" / "vecadd.rs").read_text())
