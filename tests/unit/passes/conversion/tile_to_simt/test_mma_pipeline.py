"""The cp.async pipeline of GEMM K loops on the mma.sync chips (docs/tile-mma.md, "Pipelined K loops
(cp.async)"): the lowered sm_80 kernels run on the simt emulator, whose cp.async model lets a stage be read
only after its copies were waited for, against numpy — edges on every dimension, K loops shorter and longer
than the ring, f16 and tf32 inputs, f16 accumulators, views whose rows cannot be copied in 16-byte chunks —
and the loop's shape, the stage model, the fallbacks and the PTX for sm_80/sm_86 are checked."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.ir.declare import int_value
from oxide.passes.conversion.tile_to_simt import mma_layouts as ml
from oxide.passes.conversion.tile_to_simt.mma_pipeline import MAX_STAGES, choose_stages, PipelinePlan
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch
from oxide.target import Target
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text, strided_view, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_emulated import _tf32
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm, ops_in_k_loop

RNG = np.random.default_rng(80)
DTYPES = {"f16": np.float16, "f32": np.float32}
EXAMPLES = Path(__file__).parents[5] / "examples" / "tile"


def _lowered(text: str, chip: str = "sm_80") -> ir.Module:
    module = ir.Module.parse(text)
    build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={chip}}})").run(module.operation)
    return module


def _kernel(module: ir.Module) -> ir.Operation:
    return module.body.operations[0].regions[0].blocks[0].operations[0]


def _run(tile, warps, ein, eacc, a_args, b_args, c, chip="sm_80"):
    bm, bn, bk = tile
    with context(), ir.Location.unknown():
        module = _lowered(module_text(gemm(bm, bn, bk, warps, ein, eacc)), chip)
        ring = int_value(_kernel(module).attributes["tile.dynamic_shared"])
        program = emit_program(module)
    m, n = c.shape
    launch(program, "gemm", (-(-m // bm), -(-n // bn), 1), (32 * warps, 1, 1), [*view(c), *a_args, *b_args], ring)


def _expected(a, b, ein):
    if ein == "f32":
        return _tf32(a).astype(np.float64) @ _tf32(b).astype(np.float64)
    return a.astype(np.float64) @ b.astype(np.float64)


def _check(c, expected, eacc, k):
    tolerance = 2e-2 if eacc == "f16" else 1e-4
    np.testing.assert_allclose(c.astype(np.float64), expected, rtol=tolerance, atol=tolerance * np.sqrt(max(k, 1)))


@pytest.mark.parametrize("m,n,k,tile,warps,ein,eacc", [
    (64, 64, 64, (64, 64, 32), 4, "f16", "f32"),       # two K tiles, a ring of four: the prologue holds all
    (100, 72, 100, (64, 64, 32), 4, "f16", "f32"),     # edges on every dimension; K = 100 (rows not 16-byte aligned)
    (130, 37, 328, (64, 64, 32), 4, "f16", "f32"),     # N = 37; 11 K tiles through four stages
    (64, 64, 0, (64, 64, 32), 4, "f16", "f32"),        # no K tile: the accumulator stays zero
    (48, 40, 200, (32, 32, 16), 4, "f16", "f16"),      # f16 accumulate, 13 K tiles
    (70, 64, 40, (64, 64, 16), 4, "f32", "f32"),       # tf32: rounded in registers after the copy
    (96, 72, 96, (64, 64, 32), 4, "f32", "f32"),       # tf32, edges, 16-byte-aligned rows
    (128, 128, 96, (128, 128, 32), 8, "f16", "f32"),   # the example's shape, 8 warps
])
def test_pipelined_gemm_matches_numpy(m, n, k, tile, warps, ein, eacc):
    a = RNG.standard_normal((m, k)).astype(DTYPES[ein])
    b = RNG.standard_normal((k, n)).astype(DTYPES[ein])
    c = np.full((m, n), np.nan, dtype=DTYPES[eacc])  # every element is written
    _run(tile, warps, ein, eacc, view(a), view(b), c)
    _check(c, _expected(a, b, ein), eacc, k)
