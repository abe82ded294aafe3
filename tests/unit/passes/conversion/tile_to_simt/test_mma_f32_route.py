"""f32 mma at f32 accuracy on every path (docs/tile-mma.md, "f32 and tf32"): the frontend marks only tf32
tiles' products `tile.tf32`; on sm_90a an f32 GEMM loop does not take wgmma (whose B operand lives in shared
memory, where a hi/lo split would double the ring) but the mma.sync cp.async pipeline with 3xTF32, which runs
on the simt emulator at f32 accuracy, while a tf32 loop of the same shape keeps wgmma; the PTX of both
assembles for sm_80 and sm_90a."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.dialects import tile
from oxide.passes.conversion.tile_to_simt.wgmma_plan import kernel_gemms
from oxide.target import Target
from tests.unit.frontends.tile.helpers import ir_text
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_emulated import check_product, expected_product
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm
from tests.unit.passes.conversion.tile_to_simt.test_mma_pipeline import _pipelined_text, _run

RNG = np.random.default_rng(1918)

SOURCE = """
#[cutile::module]
mod k {
    #[cutile::entry()]
    fn gemm<E: ElementType>(z: &mut Tensor<f32, { [64, 64] }>, x: &Tensor<E, { [-1, -1] }>,
                            y: &Tensor<E, { [-1, -1] }>) {
        let pid = get_tile_block_id();
        let px = x.partition(const_shape![64, 32]);
        let py = y.partition(const_shape![32, 64]);
        let mut acc = constant(0.0f32, const_shape![64, 64]);
        for k in 0..num_tiles(&px, 1) {
            acc = mma(px.load([pid.0, k]), py.load([k, pid.1]), acc);
        }
        z.store(acc);
    }
}
"""


def _wgmma_plans(ein: str) -> int:
    with context(), ir.Location.unknown():
        module = ir.Module.parse(module_text(gemm(64, 64, 32, 4, ein, "f32")))
        func = module.body.operations[0].regions[0].blocks[0].operations[0]
        return len(kernel_gemms(func.operation, Target("sm_90a"), 4))


def test_only_tf32_loops_take_wgmma_on_sm90a():
    assert _wgmma_plans("tf32") == 1  # the K-major B entry
    assert _wgmma_plans("f32") == 0
    f32 = _pipelined_text((64, 64, 32), 4, "f32", "f32", "sm_90a")
    assert "wgmma" not in f32 and "simt.cp_async" in f32 and "tile.dynamic_shared" in f32
    assert "arith.subf" in f32  # the hi/lo split


@pytest.mark.parametrize("m,n,k", [(64, 64, 64), (100, 72, 96)])
def test_sm90a_f32_pipeline_is_f32_accurate(m, n, k):
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    c = np.full((m, n), np.nan, np.float32)
    _run((64, 64, 32), 4, "f32", "f32", view(a), view(b), c, chip="sm_90a")
    check_product(c, expected_product(a, b, "f32"), "f32", "f32", k)


@pytest.mark.parametrize("elem,marked", [("f32", False), ("tf32", True)])
def test_the_frontend_marks_tf32_products_only(elem, marked):
    text = ir_text(SOURCE, {"gemm": [[elem]]})
    (mma_line,) = [line for line in text.splitlines() if tile.MmaOp.OPERATION_NAME in line]
    assert (tile.TF32_ATTR in mma_line) == marked


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("chip", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("elem", ["f32", "tf32"])
def test_f32_and_tf32_gemms_assemble(chip, elem, tmp_path):
    compiled = oxide.compile(SOURCE, "k.rs", chip=chip, instances={"gemm": [[elem]]})
    ptx = compiled.ptx[chip]
    assert "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in ptx
    assert ("sub.f32" in ptx or "sub.rn.f32" in ptx) == (elem == "f32")
    if chip == "sm_90a":
        assert ("wgmma.mma_async" in ptx) == (elem == "tf32")
    (tmp_path / "k.ptx").write_text(ptx)
    result = subprocess.run([shutil.which("ptxas"), f"-arch={chip}", str(tmp_path / "k.ptx"), "-o",
                             str(tmp_path / "k.cubin")], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
