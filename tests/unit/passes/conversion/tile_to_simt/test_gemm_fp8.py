"""fp8 (e4m3, e5m2) operands of the sm_90a tile GEMM (docs/tile-hopper.md, "Precisions"): the K-major B entry,
one 128-element swizzle row per box, wgmma k32. The lowered kernel runs on the simt emulator (data as uint8 bit
patterns, B a transposed view) against numpy on the decoded values, with edge tiles on every dimension."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch
from oxide.runtime.emulator.wgmma_operands import to_float32
from oxide.runtime.tensor_map import TensorMap
from tests.unit.passes.conversion.tile_to_simt.harness import context, strided_view, view

LIT = Path(__file__).parents[4] / "lit" / "conversion" / "tile-to-simt" / "wgmma-gemm-fp8.mlir"
RNG = np.random.default_rng(1821)


def _program(elem: str, source: Path = LIT) -> str:
    text = "\n".join(line for line in source.read_text().splitlines() if not line.startswith("//"))
    with context(), ir.Location.unknown():
        module = ir.Module.parse(text.replace("f8E4M3FN", elem))
        build_pass_manager("builtin.module(convert-tile-to-simt{chip=sm_90a})").run(module.operation)
        return emit_program(module)


def _finite_bytes(shape: tuple[int, int], kind: str) -> np.ndarray:
    """Random fp8 bit patterns of finite values (no NaN or infinity codes)."""
    raw = RNG.integers(0, 256, shape, dtype=np.uint8)
    bad = np.isnan(to_float32(raw[..., None], kind)) | np.isinf(to_float32(raw[..., None], kind))
    raw[bad] = 0x38  # a finite value in both formats
    return raw


@pytest.mark.parametrize("elem,kind", [("f8E4M3FN", "e4m3"), ("f8E5M2", "e5m2")])
@pytest.mark.parametrize("m,n,k", [(100, 72, 304), (64, 64, 128), (16, 136, 48), (64, 64, 256), (65, 64, 400)])
def test_fp8_wgmma_entry_matches_numpy(elem, kind, m, n, k):
    program = _program(elem)
    a, bt = _finite_bytes((m, k), kind), _finite_bytes((n, k), kind)
    c = np.full((m, n), np.nan, dtype=np.float32)
    maps = [TensorMap(a, (64, 128), swizzle="128B"), TensorMap(bt, (64, 128), swizzle="128B"),
            TensorMap(c, (64, 32), swizzle="128B")]  # the output's, for the TMA-store epilogue
    args = [*view(c), *view(a), *strided_view(bt.reshape(-1), (k, n), (1, k)), *maps]
    # Warp-specialized (a producer warpgroup: 256 threads) and persistent (two blocks walk the tiles).
    launch(program, "gemm", (2, 1, 1), (256, 1, 1), args, 4 * 128 * 128)
    expected = to_float32(a[..., None], kind).astype(np.float64) @ to_float32(bt[..., None], kind).T.astype(np.float64)
    np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())


CHUNKED = LIT.with_name("wgmma-gemm-fp8-chunked.mlir")


@pytest.mark.parametrize("m,n,k", [(130, 264, 304), (128, 256, 128), (128, 256, 256), (64, 72, 640)])
def test_fp8_chunked_promotion_matches_numpy(m, n, k):
    # 128 x 256 x 128 tiles: each stage's MMAs in four 64-column chunks alternating between two partial sums
    # (GemmPlan.partial_n). Edge tiles on M and N, a K tail, one K step (the rotated loop's first chunk and its
    # tail only), two steps (one iteration), and K loops longer than the ring (five steps; with two tiles per
    # block the step count continues across tiles).
    program = _program("f8E4M3FN", CHUNKED)
    a, bt = _finite_bytes((m, k), "e4m3"), _finite_bytes((n, k), "e4m3")
    c = np.full((m, n), np.nan, dtype=np.float32)
    maps = [TensorMap(a, (128, 128), swizzle="128B"), TensorMap(bt, (256, 128), swizzle="128B"),
            TensorMap(c, (128, 32), swizzle="128B")]
    args = [*view(c), *view(a), *strided_view(bt.reshape(-1), (k, n), (1, k)), *maps]
    # Two consumer warpgroups and the producer (384 threads), persistent: two blocks walk the tiles.
    launch(program, "gemm", (2, 1, 1), (384, 1, 1), args, 4 * (128 + 256) * 128)
    expected = to_float32(a[..., None], "e4m3").astype(np.float64) @ to_float32(bt[..., None], "e4m3").T.astype(np.float64)
    np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())
