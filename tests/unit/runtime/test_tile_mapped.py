"""A persistent GEMM over a mapped output (examples/tile/persistent_gemm.rs) on both emulators: the tile
emulator (oxide.runtime, target "cpu") and the simt emulator running the kernel convert-tile-to-simt lowered,
against numpy, with ragged edge tiles, clipped work items, a whole-axis (0) map entry and every block count;
and the launch-time refusals of mapped arguments."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oxide
from oxide.dialects.context import make_context
from oxide.frontends.tile import compile_tile
from oxide.runtime.errors import KernelArgumentError, LaunchContractError
from oxide.runtime.module import Module
from oxide.runtime.tile import partition
from tests.unit.passes.conversion.tile_to_simt.harness import run_tile, view

SOURCE = (Path(__file__).parents[3] / "examples" / "tile" / "persistent_gemm.rs").read_text()
MAPS = ["[2, 1]", "[1, 0]", "[3, 2]"]
RNG = np.random.default_rng(19)


@pytest.fixture(scope="module")
def compiled():
    return oxide.compile(SOURCE, "persistent_gemm.rs", chip="sm_90",
                         instances={"gemm_persistent": [["f32", "16", "16", "8", m] for m in MAPS]})


def _inputs(m: int, n: int, k: int):
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    return a, b, np.full((m, n), np.nan, np.float32), a.astype(np.float64) @ b


def _close(c: np.ndarray, expected: np.ndarray, k: int) -> None:
    # f32 mma multiplies at tf32 precision; NaN left anywhere means a tile was never written.
    np.testing.assert_allclose(c, expected, rtol=1e-2, atol=2e-3 * np.sqrt(k))


@pytest.mark.parametrize("shape, blocks", [((2, 1), 1), ((2, 1), 4), ((2, 1), 9), ((1, 0), 3), ((3, 2), 2)])
def test_tile_emulator_matches_numpy(compiled, shape, blocks):
    module = Module(compiled.artifact(), "cpu")
    a, b, c, expected = _inputs(70, 45, 20)  # 5 x 3 tiles of 16 x 16, ragged on both axes
    module.gemm_persistent(partition(c, (16, 16)).map(shape, blocks), a, b)
    _close(c, expected, 20)


@pytest.mark.parametrize("blocks", [1, 3, 9])
def test_lowered_kernel_on_the_simt_emulator_matches_numpy(compiled, blocks):
    entry = "gemm_persistent_f32_16_16_8_2x1"
    context = make_context()
    result = compile_tile(SOURCE, "persistent_gemm.rs", context,
                          {"gemm_persistent": [["f32", "16", "16", "8", "[2, 1]"]]})
    with context:
        text = result.module.operation.get_asm()
    a, b, c, expected = _inputs(70, 45, 20)
    run_tile(text, entry, [blocks], [*view(c), *view(a), *view(b)])
    _close(c, expected, 20)


def test_launch_refusals(compiled):
    module = Module(compiled.artifact(), "cpu")
    a, b, c, _ = _inputs(64, 64, 16)
    with pytest.raises(KernelArgumentError, match="takes a mapped partition|MappedPartitionMut"):
        module.gemm_persistent_f32_16_16_8_2x1(partition(c, (16, 16)), a, b)
    with pytest.raises(KernelArgumentError, match=r"map \(1, 1\)"):
        module.gemm_persistent_f32_16_16_8_2x1(partition(c, (16, 16)).map((1, 1), 2), a, b)
    with pytest.raises((KernelArgumentError, LaunchContractError)):
        module.gemm_persistent_f32_16_16_8_2x1(partition(c, (32, 16)).map((2, 1), 2), a, b)
