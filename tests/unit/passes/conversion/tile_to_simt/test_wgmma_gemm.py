"""The sm_90a GEMM path of convert-tile-to-simt (docs/tile-hopper.md): the K loop of the GEMM tile kernel becomes
TMA copies into 128-byte-swizzled shared memory, an mbarrier ring and wgmma; the same kernel keeps mma.sync on
other chips and for tiles the path does not take.

The lowered kernels run on the simt emulator (whose TMA, mbarrier and wgmma rules follow the PTX ISA) with
tensor maps of the numpy operands, against numpy, including shapes that are not multiples of the tile (TMA's
zero fill and the masked store) and K loops longer than the ring (refilled stages).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.backend import compile_to_ptx
from oxide.backend.emulator import emit_program
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch
from oxide.runtime.errors import KernelArgumentError
from oxide.runtime.tensor_map import TensorMap
from oxide.runtime.tile import partition
from oxide.runtime.tile_kernel import TileKernel
from oxide.target import Target
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm

RNG = np.random.default_rng(18)
EXAMPLES = Path(__file__).parents[5] / "examples" / "tile"


def _lowered(text: str, chip: str) -> ir.Module:
    module = ir.Module.parse(text)
    build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={chip}}})").run(module.operation)
    return module


@pytest.mark.parametrize("m,n,k", [
    (64, 64, 64),      # one tile, one K step
    (100, 72, 80),     # edges on every dimension: TMA zero fill, masked store
    (130, 136, 328),   # 3 x 3 tiles, 6 K tiles through a ring of 2 stages (refills)
    (64, 64, 0),       # no K tile: the accumulator stays zero
])
def test_emulated_wgmma_gemm_matches_numpy(m, n, k):
    with context(), ir.Location.unknown():
        program = emit_program(_lowered(module_text(gemm(64, 64, 64, 4, "f16", "f32")), "sm_90a"))
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, dtype=np.float32)  # every element is written
    # A tensor map cannot describe an empty tensor: with no K tile, stand-ins that no copy reads.
    a_map, b_map = (a, b) if k else (np.zeros((64, 64), np.float16),) * 2
    maps = [TensorMap(a_map, (64, 64), swizzle="128B"), TensorMap(b_map, (64, 64), swizzle="128B")]
    launch(program, "gemm", (-(-m // 64), -(-n // 64), 1), (128, 1, 1), [*view(c), *view(a), *view(b), *maps])
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), expected, rtol=1e-4, atol=1e-4 * np.sqrt(max(k, 1)))


def test_sm90a_kernel_takes_tensor_maps_and_runs_wgmma():
    with context(), ir.Location.unknown():
        text = str(_lowered(module_text(gemm(64, 64, 64, 4, "bf16", "f32")), "sm_90a"))
    signature = text.split("kernel attributes")[0]
    assert signature.count("!simt.tensor_map") == 2
    assert 'tile.tma = [{box = array<i64: 64, 64>, param = 1 : i64, swizzle = "128B"}, ' \
           '{box = array<i64: 64, 64>, param = 2 : i64, swizzle = "128B"}]' in text
    assert text.count('"simt.wgmma_mma_async"') == 4  # one 64-row block, four k16 steps of the 64-deep stage
    assert "transpose_b = true" in text and "transpose_a = false" in text
    assert '"simt.tma_load"' in text and '"simt.mbarrier_wait_parity"' in text
    assert "nvvm.mma.sync" not in text and "ldmatrix" not in text


@pytest.mark.parametrize("chip", ["sm_80", "sm_90"])
def test_other_chips_keep_mma_sync(chip):
    with context(), ir.Location.unknown():
        text = str(_lowered(module_text(gemm(64, 64, 64, 4, "bf16", "f32")), chip))
    assert "nvvm.mma.sync" in text and "ldmatrix" in text
    assert "tensor_map" not in text and "wgmma" not in text and "tile.tma" not in text


@pytest.mark.parametrize("tile,warps,ein,eacc", [
    ((64, 64, 32), 4, "bf16", "f32"),    # BK is not one 128-byte swizzle row
    ((128, 128, 64), 8, "bf16", "f32"),  # a stage is 32 KiB: no room for two in static shared memory
    ((64, 64, 64), 4, "f16", "f16"),     # an f16 accumulator (a later slice)
    ((64, 64, 64), 2, "f16", "f32"),     # not whole warpgroups
])
def test_what_the_wgmma_path_does_not_take_keeps_mma_sync(tile, warps, ein, eacc):
    with context(), ir.Location.unknown():
        text = str(_lowered(module_text(gemm(*tile, warps, ein, eacc)), "sm_90a"))
    assert "nvvm.mma.sync" in text and "wgmma" not in text and "tensor_map" not in text


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("elem", ["bf16", "f16"])
def test_ptxas_assembles_the_wgmma_gemm(elem, tmp_path):
    with context(), ir.Location.unknown():
        module = _lowered(module_text(gemm(64, 64, 64, 4, elem, "f32")), "sm_90a")
        ptx = "\n".join(compile_to_ptx(module, Target("sm_90a")).values())
    assert "wgmma.mma_async.sync.aligned.m64n64k16.f32" in ptx and "cp.async.bulk.tensor.2d" in ptx
    path = tmp_path / "gemm.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90a", str(path), "-o", str(tmp_path / "gemm.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_gemm_example_for_sm90a_records_its_tensor_maps_and_the_gpu_runtime_refuses_it():
    # 64x64x64 tiles take the wgmma path; 128x128x64 tiles (32 KiB stages) keep mma.sync.
    source = (EXAMPLES / "gemm.rs").read_text()
    compiled = oxide.compile(source, "gemm.rs", chip="sm_90a",
                             instances={"gemm": [["64", "64", "64"], ["128", "128", "64"]]})
    assert compiled.tile["gemm_64_64_64"]["tma"] == [{"param": 1, "box": [64, 64], "swizzle": "128B"},
                                                     {"param": 2, "box": [64, 64], "swizzle": "128B"}]
    assert "tma" not in compiled.tile["gemm_128_128_64"]
    spec = next(s for s in compiled.artifact().kernels if s.entry == "gemm_64_64_64")
    kernel = TileKernel(spec, SimpleNamespace(target="gpu", limits=None))
    z = partition(np.zeros((64, 64), np.float32), (64, 64))
    with pytest.raises(KernelArgumentError, match="sm_90a's TMA \\+ wgmma GEMM path"):
        kernel(z, np.zeros((64, 64), np.uint16), np.zeros((64, 64), np.uint16))
