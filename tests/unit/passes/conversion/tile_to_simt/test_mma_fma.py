"""tile.mma of any shape: products below one Tensor Core fragment (M < 16, N < 8, K below the instruction's K)
and every product below sm_80 lower to FMA loops (mma_fma.py), chosen by mma_layouts.tensor_core_shape.

The lowered GEMM kernels run on the simt emulator against numpy over a grid of small and odd shapes and the
dtypes mma accepts (f16 -> f32, f16 -> f16, f32 (unrounded: f32-accurate), tf32, fp8; the emulator has no bf16, which ptxas checks
instead), with edge tiles; the cutile-rs examples' shapes (async_gemm's 16x16x8 f16, async_mlp's 4x4x4 and
N = 1) compile to PTX that ptxas accepts on sm_80 and sm_90a; fragment-sized products keep mma.sync.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.backend.emulator import emit_program
from oxide.passes.conversion.tile_to_simt.mma_layouts import tensor_core_shape
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import fp8, launch
from tests.unit.passes.conversion.tile_to_simt.harness import context, lower, module_text, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm, tile_elem

RNG = np.random.default_rng(1919)
DTYPES = {"f16": np.float16, "f32": np.float32, "tf32": np.float32}


def _tf32(x: np.ndarray) -> np.ndarray:
    bits = x.astype(np.float32).view(np.uint32)
    return ((bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)


def _run(text: str, chip: str, grid: tuple[int, int], args: list, warps: int) -> None:
    with context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={chip}}})").run(module.operation)
        program = emit_program(module)
    launch(program, "gemm", (*grid, 1), (32 * warps, 1, 1), args)


def _inputs(shape: tuple[int, int], ein: str) -> tuple[np.ndarray, np.ndarray]:
    """(the kernel's operand array, its values as float64)."""
    values = RNG.standard_normal(shape)
    if ein.startswith("f8"):
        data = fp8.encode(values * 4, ein)
        return data, fp8.decode(data, ein).astype(np.float64)
    data = values.astype(DTYPES[ein])
    return data, (_tf32(data) if ein == "tf32" else data).astype(np.float64)


@pytest.mark.parametrize("m,n,k,tile,warps,ein,eacc,chip", [
    (64, 64, 16, (16, 16, 8), 4, "f16", "f32", "sm_90"),     # async_gemm: K below m16n8k16's 16
    (16, 16, 16, (4, 4, 4), 4, "f32", "f32", "sm_90"),       # async_mlp's gemm
    (16, 1, 16, (4, 1, 4), 4, "f32", "f32", "sm_90"),        # async_mlp's matvec: N = 1
    (37, 3, 20, (8, 1, 4), 1, "f32", "f32", "sm_80"),        # edge tiles, one warp
    (1, 40, 48, (1, 32, 16), 4, "f16", "f16", "sm_90"),      # M = 1, f16 accumulator
    (30, 70, 24, (8, 64, 8), 2, "f16", "f32", "sm_80"),      # M below 16, wide N
    (64, 6, 64, (64, 4, 32), 4, "f32", "f32", "sm_90"),      # N below 8
    (20, 20, 64, (8, 16, 32), 4, "f8E4M3FN", "f32", "sm_90"),   # fp8, K a multiple of 32
    (20, 20, 64, (16, 4, 32), 4, "f8E5M2", "f32", "sm_80"),
    (70, 40, 48, (64, 32, 16), 4, "f16", "f32", "sm_75"),    # fragment-sized, but no mma.sync below sm_80
    (40, 40, 24, (32, 32, 8), 4, "f32", "f32", "sm_75"),
    (16, 16, 16, (4, 4, 4), 4, "tf32", "f32", "sm_90"),      # tf32 tiles: rounded before the loop
    (40, 40, 24, (32, 32, 8), 4, "tf32", "f32", "sm_75"),
    (33, 17, 32, (16, 16, 16), 4, "f16", "f16", "sm_70"),
])
def test_fma_gemm_matches_numpy(m, n, k, tile, warps, ein, eacc, chip):
    bm, bn, bk = tile
    assert not tensor_core_shape(int(chip[3:]), bm, bn, bk, tile_elem(ein), eacc)
    a, a64 = _inputs((m, k), ein)
    b, b64 = _inputs((k, n), ein)
    c = np.full((m, n), np.nan, dtype=DTYPES[eacc])  # every element is written
    grid = (-(-m // bm), -(-n // bn))
    _run(module_text(gemm(bm, bn, bk, warps, ein, eacc)), chip, grid, [*view(c), *view(a), *view(b)], warps)
    expected = a64 @ b64
    tolerance = 2e-2 if eacc == "f16" else 1e-5
    np.testing.assert_allclose(c.astype(np.float64), expected, rtol=tolerance,
                               atol=tolerance * max(1.0, np.abs(expected).max()))


def test_the_rule_keeps_fragment_products_on_the_tensor_cores():
    assert tensor_core_shape(80, 16, 8, 16, "f16", "f32") and tensor_core_shape(90, 16, 8, 8, "f32", "f32")
    assert tensor_core_shape(90, 16, 8, 32, "f8E4M3FN", "f32")
    assert not tensor_core_shape(90, 16, 8, 8, "f16", "f32")  # K below k16
    assert not tensor_core_shape(90, 8, 8, 16, "f16", "f32") and not tensor_core_shape(90, 16, 4, 16, "f16", "f32")
    assert not tensor_core_shape(75, 128, 128, 32, "f16", "f32")


def test_fragment_products_still_lower_to_mma_sync_and_small_ones_do_not():
    big = lower(module_text(gemm(16, 8, 16, 4, "f16", "f32")))
    small = lower(module_text(gemm(16, 16, 8, 4, "f16", "f32")))
    assert "nvvm.mma.sync" in big and "ldmatrix" in big
    assert "nvvm.mma.sync" not in small and "ldmatrix" not in small and "arith.mulf" in small


KERNELS = """
#[cutile::module]
mod small_mma {
    use cutile::core::*;

    #[cutile::entry()]
    fn gemm<E1: ElementType, E2: ElementType, const BM: i32, const BN: i32, const BK: i32, const K: i32>(
        z: &mut Tensor<E1, { [BM, BN] }>, x: &Tensor<E2, { [-1, K] }>, y: &Tensor<E2, { [K, -1] }>) {
        let part_x = x.partition(const_shape![BM, BK]);
        let part_y = y.partition(const_shape![BK, BN]);
        let pid = get_tile_block_id();
        let mut tile_z = z.load();
        for i in 0i32..(K / BK) {
            tile_z = mma(part_x.load([pid.0, i]), part_y.load([i, pid.1]), tile_z);
        }
        z.store(tile_z);
    }

    #[cutile::entry()]
    fn matvec<const BM: i32, const BK: i32, const K: i32>(
        z: &mut Tensor<f32, { [BM] }>, x: &Tensor<f32, { [-1, K] }>, y: &Tensor<f32, { [K] }>) {
        let part_x = x.partition(const_shape![BM, BK]);
        let part_y = y.partition(const_shape![BK]);
        let pid = get_tile_block_id();
        let mut tile_z = z.load().reshape(const_shape![BM, 1]);
        for i in 0i32..(K / BK) {
            let tile_y = part_y.load([i]).reshape(const_shape![BK, 1]);
            tile_z = mma(part_x.load([pid.0, i]), tile_y, tile_z);
        }
        z.store(tile_z.reshape(const_shape![BM]));
    }
}
"""
INSTANCES = [
    {"gemm": [["f32", "f16", "16", "16", "8", "16"]]},
    {"gemm": [["f32", "bf16", "16", "16", "8", "16"]]},
    {"gemm": [["f32", "f32", "4", "4", "4", "16"]]},
    {"gemm": [["f16", "f16", "8", "32", "16", "64"]]},
    {"matvec": [["4", "4", "16"]]},
    {"matvec": [["128", "64", "256"]]},
]


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("chip", ["sm_80", "sm_90a", "sm_75"])
@pytest.mark.parametrize("instances", INSTANCES)
def test_small_products_assemble(tmp_path, chip, instances):
    if chip == "sm_75" and "bf16" in str(instances):
        pytest.skip("bf16 loads need sm_80")
    compiled = oxide.compile(KERNELS, "small_mma.rs", chip=chip, instances=instances)
    ptx = tmp_path / "k.ptx"
    ptx.write_text(compiled.ptx[chip])
    result = subprocess.run(["ptxas", f"-arch={chip}", str(ptx), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "mma.sync" not in compiled.ptx[chip]
