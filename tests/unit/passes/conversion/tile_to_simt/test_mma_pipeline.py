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
from oxide.passes.conversion.tile_to_simt.mma_pipeline import MAX_STAGES, PipelinePlan, choose_stages
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch
from oxide.runtime.emulator.shared_window import SharedMemoryError
from oxide.target import Target
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text, strided_view, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_emulated import check_product, expected_product
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm, ops_in_k_loop

RNG = np.random.default_rng(80)
DTYPES = {"f16": np.float16, "f32": np.float32, "tf32": np.float32}
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
    return expected_product(a, b, ein)


def _check(c, expected, eacc, k, ein="f16"):
    check_product(c, expected, ein, eacc, k)


@pytest.mark.parametrize("m,n,k,tile,warps,ein,eacc", [
    (64, 64, 64, (64, 64, 32), 4, "f16", "f32"),       # two K tiles, a ring of four: the prologue holds all
    (100, 72, 100, (64, 64, 32), 4, "f16", "f32"),     # edges on every dimension; K = 100 (rows not 16-byte aligned)
    (130, 37, 328, (64, 64, 32), 4, "f16", "f32"),     # N = 37; 11 K tiles through four stages
    (64, 64, 0, (64, 64, 32), 4, "f16", "f32"),        # no K tile: the accumulator stays zero
    (48, 40, 200, (32, 32, 16), 4, "f16", "f16"),      # f16 accumulate, 13 K tiles
    (70, 64, 40, (64, 64, 16), 4, "tf32", "f32"),      # tf32: rounded in registers after the copy
    (96, 72, 96, (64, 64, 32), 4, "tf32", "f32"),      # tf32, edges, 16-byte-aligned rows
    (70, 64, 40, (64, 64, 16), 4, "f32", "f32"),       # f32: split into hi and lo in registers (3xTF32)
    (96, 72, 96, (64, 64, 32), 4, "f32", "f32"),       # f32, edges, 16-byte-aligned rows
    (128, 128, 96, (128, 128, 32), 8, "f16", "f32"),   # the example's shape, 8 warps
    (30, 244, 20, (32, 256, 8), 1, "tf32", "f32"),     # one warp, B rows of 64 chunks: two rounds per row
])
def test_pipelined_gemm_matches_numpy(m, n, k, tile, warps, ein, eacc):
    a = RNG.standard_normal((m, k)).astype(DTYPES[ein])
    b = RNG.standard_normal((k, n)).astype(DTYPES[ein])
    c = np.full((m, n), np.nan, dtype=DTYPES[eacc])  # every element is written
    _run(tile, warps, ein, eacc, view(a), view(b), c)
    _check(c, _expected(a, b, ein), eacc, k, ein)


@pytest.mark.parametrize("offset,strides", [
    (1, None),        # the base is 2 bytes past a 16-byte boundary
    (0, "columns"),   # B read through a transposed view: innermost stride K, not 1
])
def test_views_cp_async_cannot_chunk_are_copied_element_by_element(offset, strides):
    m, n, k = 100, 72, 96
    a_base = RNG.standard_normal(m * k + offset).astype(np.float16)
    a = a_base[offset:].reshape(m, k)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    if strides == "columns":
        bt = np.ascontiguousarray(b.T)
        b_args = strided_view(bt.reshape(-1), (k, n), (1, k))
    else:
        b_args = view(b)
    c = np.full((m, n), np.nan, dtype=np.float32)
    _run((64, 64, 32), 4, "f16", "f32", strided_view(a_base, (m, k), (k, 1), offset), b_args, c)
    _check(c, _expected(a, b, "f16"), "f32", k)


def _pipelined_text(tile=(64, 64, 32), warps=4, ein="f16", eacc="f32", chip="sm_80") -> str:
    with context(), ir.Location.unknown():
        return str(_lowered(module_text(gemm(*tile, warps, ein, eacc)), chip))


def test_a_pipeline_without_its_waits_fails_on_the_emulator():
    # The K loop's wait_group is what makes a stage readable: without it, ldmatrix reads bytes still in flight.
    text = "\n".join(line for line in _pipelined_text().splitlines() if "simt.cp_async_wait_group" not in line)
    with context(), ir.Location.unknown():
        program = emit_program(ir.Module.parse(text))
    a = RNG.standard_normal((64, 64)).astype(np.float16)
    b = RNG.standard_normal((64, 64)).astype(np.float16)
    c = np.zeros((64, 64), np.float32)
    with pytest.raises(SharedMemoryError, match="a cp.async of thread .* has not completed"):
        launch(program, "gemm", (1, 1, 1), (128, 1, 1), [*view(c), *view(a), *view(b)], 4 * 10240)


def test_the_k_loop_waits_for_one_stage_and_copies_one_ahead():
    plan = ml.plan_mma([64, 32], [32, 64], "f16", "f32", 4)
    stages = PipelinePlan(plan, 1)
    text = _pipelined_text()
    ops = ops_in_k_loop(text)
    # The loop starts by waiting for its stage's group and the block's barrier.
    assert ops[1:3] == ["simt.cp_async_wait_group", "simt.sync_threads"]
    assert ops.count("simt.sync_threads") == 1  # one barrier per K tile
    assert ops.count("simt.cp_async_commit_group") == 1
    fm, fn = plan.fragments
    assert ops.count("nvvm.mma.sync") == fm * fn * plan.k_steps
    # Per K tile and thread: (64 x 32 + 32 x 64) f16 / 8 per chunk / 128 threads = 4 chunks.
    assert ops.count("simt.cp_async") == 4
    count = choose_stages(stages.stage_bytes, Target("sm_80"))
    assert f"{{pending = {count - 2} : i64}}" in text and "tile.dynamic_shared" in text
    assert "simt.ptr_store" not in ops[ops.index("nvvm.mma.sync"):]  # no synchronous staging


@pytest.mark.parametrize("chip,stages", [("sm_80", 4), ("sm_86", 2), ("sm_89", 2), ("sm_90", 4)])
def test_stages_follow_the_chips_shared_memory(chip, stages):
    # The example's 128 x 128 x 64 bf16 tiles: 35 KiB per stage (padded rows).
    plan = PipelinePlan(ml.plan_mma([128, 64], [64, 128], "bf16", "f32", 4), 1)
    assert choose_stages(plan.stage_bytes, Target(chip)) == stages <= MAX_STAGES
    assert choose_stages(plan.stage_bytes, Target(chip), stages=3) == 3  # the knob overrides the model


def test_sm90a_keeps_the_wgmma_path_and_other_chips_pipeline():
    hopper = _pipelined_text((64, 64, 64), 4, "bf16", "f32", "sm_90a")
    assert "wgmma" in hopper and "simt.cp_async" not in hopper
    for chip in ("sm_80", "sm_86", "sm_89", "sm_90"):
        text = _pipelined_text((64, 64, 64), 4, "bf16", "f32", chip)
        assert "simt.cp_async" in text and "wgmma" not in text and "nvvm.mma.sync" in text


def test_loops_that_are_not_the_pattern_keep_the_synchronous_staging():
    text = module_text(gemm(64, 64, 32, 4, "f16", "f32"))
    with context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        build_pass_manager("builtin.module(tile-prefetch-loads,convert-tile-to-simt{chip=sm_80})").run(module.operation)
        lowered = str(module)
    assert "simt.cp_async" not in lowered and "tile.dynamic_shared" not in lowered and "nvvm.mma.sync" in lowered


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("chip", ["sm_80", "sm_86"])
def test_the_gemm_example_assembles_for_ampere(chip, tmp_path):
    import oxide

    source = (EXAMPLES / "gemm.rs").read_text()
    compiled = oxide.compile(source, "gemm.rs", chip=chip, instances={"gemm": [["128", "128", "64"]]})
    assert compiled.tile["gemm_128_128_64"]["dynamic_shared"] == {"sm_80": 4, "sm_86": 2}[chip] * 35 * 1024
    ptx = compiled.ptx[chip]
    assert "cp.async.cg.shared.global" in ptx and "cp.async.wait_group" in ptx
    assert "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" in ptx
    (tmp_path / "gemm.ptx").write_text(ptx)
    result = subprocess.run([shutil.which("ptxas"), f"-arch={chip}", str(tmp_path / "gemm.ptx"), "-o",
                             str(tmp_path / "gemm.cubin")], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
