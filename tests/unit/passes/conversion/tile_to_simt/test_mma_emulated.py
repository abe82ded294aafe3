"""GEMM tile kernels lowered by convert-tile-to-simt (mma.sync fed by ldmatrix) and run on the simt emulator,
whose ldmatrix / mma.sync follow the PTX ISA (oxide.runtime.emulator.tensor_core), give numpy's product.

The emulator has no bf16, so these cover f16 -> f32, f16 -> f16, f32 -> f32 (f32-accurate, 3xTF32) and tf32
-> f32 (f32 tiles rounded to tf32); bf16 differs from f16
only in the PTX type name of the same instructions. The emulator also checks shared-memory races, so the
barriers around the staging buffer are checked too. Shapes that are not multiples of the tile check the
zero-padded loads and the masked store of the accumulator layout.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.unit.passes.conversion.tile_to_simt.harness import lower, module_text, run_tile, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm, ops_in_k_loop

RNG = np.random.default_rng(11)
DTYPES = {"f16": np.float16, "f32": np.float32, "tf32": np.float32}
# Relative tolerance per input type: f32 products must be f32-accurate, which tf32 rounding misses by ~100x
# (test_f32_tolerance_catches_tf32_products shows it).
TOLERANCE = {"f16": 1e-4, "tf32": 1e-4, "f32": 2e-6, "f8E4M3FN": 1e-4, "f8E5M2": 1e-4}


def _tf32(x: np.ndarray) -> np.ndarray:
    """f32 rounded to tf32 (10 mantissa bits, to nearest, ties away), as the lowering's cvt.rna does."""
    bits = x.astype(np.float32).view(np.uint32)
    return ((bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)


def expected_product(a: np.ndarray, b: np.ndarray, ein: str) -> np.ndarray:
    """a @ b in float64, from tf32-rounded inputs for tf32 (exactly what the Tensor Cores multiply)."""
    if ein == "tf32":
        a, b = _tf32(a), _tf32(b)
    return a.astype(np.float64) @ b.astype(np.float64)


def check_product(c: np.ndarray, expected: np.ndarray, ein: str, eacc: str, k: int) -> None:
    """c equals expected within the accumulator's and the inputs' precision (per-step f32 rounding grows with
    sqrt(K))."""
    tolerance = 2e-2 if eacc == "f16" else TOLERANCE[ein]
    np.testing.assert_allclose(c.astype(np.float64), expected, rtol=tolerance, atol=tolerance * np.sqrt(max(k, 1)))


@pytest.mark.parametrize("m,n,k,tile,warps,ein,eacc", [
    (64, 64, 64, (64, 64, 32), 4, "f16", "f32"),
    (100, 72, 80, (64, 64, 32), 4, "f16", "f32"),
    (128, 128, 64, (128, 128, 32), 8, "f16", "f32"),
    (130, 128, 128, (128, 128, 64), 8, "f16", "f32"),  # too big for two staging buffers: one, two barriers
    (48, 40, 48, (32, 32, 16), 4, "f16", "f16"),
    (70, 64, 40, (64, 64, 16), 4, "f32", "f32"),
    (70, 64, 40, (64, 64, 16), 4, "tf32", "f32"),
    (32, 16, 32, (16, 8, 16), 4, "f16", "f32"),
])
@pytest.mark.parametrize("prefetch", [False, True])
def test_emulated_gemm_matches_numpy(m, n, k, tile, warps, ein, eacc, prefetch):
    bm, bn, bk = tile
    a = RNG.standard_normal((m, k)).astype(DTYPES[ein])
    b = RNG.standard_normal((k, n)).astype(DTYPES[ein])
    c = np.full((m, n), np.nan, dtype=DTYPES[eacc])  # every element is written
    grid = [-(-m // bm), -(-n // bn)]
    text = module_text(gemm(bm, bn, bk, warps, ein, eacc))
    if prefetch:  # the K loop's loads one iteration ahead (tile-prefetch-loads)
        text = lower(text, "tile-prefetch-loads")
    run_tile(text, "gemm", grid, [*view(c), *view(a), *view(b)], warps)
    check_product(c, expected_product(a, b, ein), ein, eacc, k)


def test_f32_tolerance_catches_tf32_products():
    # The f32 check above would fail a product of tf32-rounded inputs: the old lowering of f32 mma.
    a = RNG.standard_normal((70, 40)).astype(np.float32)
    b = RNG.standard_normal((40, 64)).astype(np.float32)
    with pytest.raises(AssertionError):
        check_product(expected_product(a, b, "tf32").astype(np.float32), expected_product(a, b, "f32"), "f32",
                      "f32", 40)
    check_product(expected_product(a, b, "f32").astype(np.float32), expected_product(a, b, "f32"), "f32", "f32", 40)


def test_mma_result_feeds_the_next_mma():
    # Attention's shape: P = f16(Q @ K), O = P @ V. P arrives at the second mma in the first one's accumulator
    # layout (truncf keeps the layout), so its staging stores follow that layout instead of a blocked one.
    def part(elem: str, shape: str) -> str:
        return f"!tile.partition<{elem}, array<i64: {shape}>>"

    f16_view = "!tile.view<f16, array<i64: -1, -1>>"
    text = module_text(f"""
    gpu.func @attn(%o: !tile.view_mut<f32, array<i64: 64, 32>>, %q: {f16_view}, %k: {f16_view}, %v: {f16_view})
        kernel attributes {{tile.warps = 4 : i32}} {{
      %c0 = arith.constant 0 : i32
      %pq = "tile.make_partition"(%q) : ({f16_view}) -> {part("f16", "64, 32")}
      %pk = "tile.make_partition"(%k) : ({f16_view}) -> {part("f16", "32, 64")}
      %pv = "tile.make_partition"(%v) : ({f16_view}) -> {part("f16", "64, 32")}
      %tq = "tile.load"(%pq, %c0, %c0) : ({part("f16", "64, 32")}, i32, i32) -> tensor<64x32xf16>
      %tk = "tile.load"(%pk, %c0, %c0) : ({part("f16", "32, 64")}, i32, i32) -> tensor<32x64xf16>
      %tv = "tile.load"(%pv, %c0, %c0) : ({part("f16", "64, 32")}, i32, i32) -> tensor<64x32xf16>
      %z1 = arith.constant dense<0.0> : tensor<64x64xf32>
      %s = "tile.mma"(%tq, %tk, %z1) : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xf16>
      %z2 = arith.constant dense<0.0> : tensor<64x32xf32>
      %r = "tile.mma"(%p, %tv, %z2) : (tensor<64x64xf16>, tensor<64x32xf16>, tensor<64x32xf32>) -> tensor<64x32xf32>
      "tile.store_own"(%o, %r) : (!tile.view_mut<f32, array<i64: 64, 32>>, tensor<64x32xf32>) -> ()
      gpu.return
    }}""")
    q = RNG.standard_normal((64, 32)).astype(np.float16)
    k = RNG.standard_normal((32, 64)).astype(np.float16)
    v = RNG.standard_normal((64, 32)).astype(np.float16)
    o = np.zeros((64, 32), np.float32)
    run_tile(text, "attn", [1, 1], [*view(o), *view(q), *view(k), *view(v)], 4)
    p = (q.astype(np.float32) @ k.astype(np.float32)).astype(np.float16)
    np.testing.assert_allclose(o, p.astype(np.float64) @ v.astype(np.float64), rtol=1e-3, atol=1e-2)


def test_accumulator_loaded_before_the_loop_is_converted_once():
    # C += A @ B: the accumulator starts as the block's own tile of C (loaded in the blocked layout), is
    # converted to the mma layout once before the K loop, and the loop keeps one barrier per iteration.
    text = module_text(gemm(64, 64, 32, 4, "f16", "f32").replace(
        "%zero = arith.constant dense<0.0> : tensor<64x64xf32>",
        '%zero = "tile.load_own"(%c) : (!tile.view_mut<f32, array<i64: 64, 64>>) -> tensor<64x64xf32>'))
    assert ops_in_k_loop(lower(text)).count("simt.sync_threads") == 1
    a = RNG.standard_normal((96, 64)).astype(np.float16)
    b = RNG.standard_normal((64, 80)).astype(np.float16)
    c = RNG.standard_normal((96, 80)).astype(np.float32)
    expected = c.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    run_tile(text, "gemm", [2, 2], [*view(c), *view(a), *view(b)], 4)
    np.testing.assert_allclose(c, expected, rtol=1e-4, atol=1e-3)


def test_blocks_of_one_batch_may_branch_around_an_mma():
    # The emulator runs several blocks in lock step; here only even blocks run the mma (a block-uniform branch,
    # as causal attention skips tiles), so inside one batch some warps are inactive for ldmatrix / mma.sync.
    text = module_text(gemm(32, 32, 16, 4, "f16", "f32").replace(
        '%r = "tile.mma"(%ta, %tb, %acc0) : (tensor<32x16xf16>, tensor<16x32xf16>, tensor<32x32xf32>) -> '
        'tensor<32x32xf32>',
        '%two = arith.constant 2 : i32\n'
        '        %odd = arith.remui %bm, %two : i32\n'
        '        %even = arith.cmpi eq, %odd, %c0 : i32\n'
        '        %r = scf.if %even -> (tensor<32x32xf32>) {\n'
        '          %m = "tile.mma"(%ta, %tb, %acc0) : (tensor<32x16xf16>, tensor<16x32xf16>, tensor<32x32xf32>) -> '
        'tensor<32x32xf32>\n'
        '          scf.yield %m : tensor<32x32xf32>\n'
        '        } else {\n'
        '          scf.yield %acc0 : tensor<32x32xf32>\n'
        '        }'))
    assert '"tile.mma"' in text and "scf.if" in text
    a = RNG.standard_normal((128, 48)).astype(np.float16)
    b = RNG.standard_normal((48, 32)).astype(np.float16)
    c = np.full((128, 32), np.nan, np.float32)
    run_tile(text, "gemm", [4, 1], [*view(c), *view(a), *view(b)], 4)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    for block in range(4):
        rows = slice(32 * block, 32 * block + 32)
        want = expected[rows] if block % 2 == 0 else np.zeros((32, 32))
        np.testing.assert_allclose(c[rows], want, rtol=1e-4, atol=1e-3)
