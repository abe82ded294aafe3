"""Thread-block clusters in the persistent sm_90a GEMM (knob `cluster`, wgmma_cluster.py; docs/tile-hopper.md,
"Clusters"): the lowered kernels run on the simt emulator (clusters, multicast TMA, remote mbarrier arrives)
against numpy, including output grids that are not a whole number of cluster tiles (blocks with no tile of their
own keep the shared pipeline going) and K loops longer than the ring; the launch facts the artifact records; the
multicast and remote-arrive PTX, which ptxas assembles; and the refusal of bad knob values."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.backend.emulator import emit_program
from oxide.diagnostics import OxideError
from oxide.ir.declare import int_value
from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch
from oxide.runtime.tensor_map import TensorMap
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm

RNG = np.random.default_rng(19)
GEMM = Path(__file__).parents[5] / "examples" / "tile" / "gemm.rs"


def _lowered(bm: int, bn: int, warps: int, knobs: str) -> ir.Module:
    module = ir.Module.parse(module_text(gemm(bm, bn, 64, warps, "f16", "f32")))
    build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip=sm_90a {knobs}}})").run(module.operation)
    return module


def _kernel(module: ir.Module) -> ir.Operation:
    return module.body.operations[0].regions[0].blocks[0].operations[0]


def _boxes(module: ir.Module) -> list[tuple[int, int]]:
    """The boxes of the kernel's tensor maps (A, B, and the output's), as tile.tma records them."""
    text = str(_kernel(module).attributes["tile.tma"])
    return [tuple(int(x) for x in part.split(">")[0].split(",")) for part in text.split("array<i64: ")[1:]]


@pytest.mark.parametrize("cluster", ["2x1", "1x2", "2x2"])
@pytest.mark.parametrize("m,n,k,tile,blocks", [
    (128, 128, 64, (64, 64), 1),     # one cluster tile, one K step
    (200, 136, 392, (64, 64), 2),    # edges on every dimension; cluster tiles past the grid; ring refills
    (72, 72, 200, (64, 64), 1),      # a 2 x 2 tile grid: with 2x2, one cluster; with 2x1, two cluster tiles
    (136, 200, 136, (128, 128), 2),  # two B boxes per stage; the second cluster tile is half outside
])
def test_emulated_cluster_gemm_matches_numpy(cluster, m, n, k, tile, blocks):
    bm, bn = tile
    cm, cn = GemmKnobs(cluster=cluster).cluster_shape
    with context(), ir.Location.unknown():
        module = _lowered(bm, bn, 4, f"cluster={cluster}")
        ring = int_value(_kernel(module).attributes["tile.dynamic_shared"])
        boxes = _boxes(module)
        program = emit_program(module)
    # Each block of a tile row loads 1 / CN of the A box, each of a tile column 1 / CM of every B box.
    assert boxes[:2] == [(bm // cn, 64), (64 // cm, 64)]
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, dtype=np.float32)
    maps = [TensorMap(a, boxes[0], swizzle="128B"), TensorMap(b, boxes[1], swizzle="128B"),
            TensorMap(c, boxes[2], swizzle="128B")]
    size = cm * cn
    launch(program, "gemm", (blocks * size, 1, 1), (256, 1, 1), [*view(c), *view(a), *view(b), *maps], ring,
           cluster=(size, 1, 1))
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), expected, rtol=1e-4, atol=1e-4 * np.sqrt(k))
