"""tile mma of shapes below one Tensor Core fragment (FMA loops, docs/tile-mma.md), compiled here for the GPU
and compared with torch: the cutile-rs examples' async_gemm (16x16 tiles, K tile 8, f16 -> f32) and
async_mlp (4x4x4 f32 and a matrix-vector product with N = 1), and thin tiles in M and N. f32 products are
f32-accurate (torch's reference with TF32 off)."""

from __future__ import annotations

import numpy as np
import pytest

import oxide.tile

SOURCE = """
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
TYPES = {"f16": "float16", "f32": "float32"}


@pytest.fixture(scope="module")
def torch(cuda):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    return torch


def _module(tmp_path, instances):
    pytest.importorskip("mlir")  # compiled here for the device's chip
    path = tmp_path / "small_mma.rs"
    path.write_text(SOURCE)
    return oxide.load(path, target="gpu", instances=instances)


@pytest.mark.parametrize("m,n,k,bm,bn,bk,ein,eout", [
    (64, 64, 16, 16, 16, 8, "f16", "f32"),     # async_gemm
    (16, 16, 16, 4, 4, 4, "f32", "f32"),       # async_mlp's gemm
    (256, 512, 64, 8, 64, 16, "f16", "f32"),   # M below 16
    (512, 256, 128, 64, 4, 32, "f32", "f32"),  # N below 8
    (128, 128, 64, 16, 32, 8, "f16", "f16"),   # K below 16, f16 accumulator
])
def test_small_gemm_matches_torch(torch, tmp_path, m, n, k, bm, bn, bk, ein, eout):
    mod = _module(tmp_path, {"gemm": [[eout, ein, str(bm), str(bn), str(bk), str(k)]]})
    dt_in, dt_out = getattr(torch, TYPES[ein]), getattr(torch, TYPES[eout])
    x = torch.randn(m, k, device="cuda").to(dt_in)
    y = torch.randn(k, n, device="cuda").to(dt_in)
    z = torch.zeros(m, n, device="cuda", dtype=dt_out)
    mod.gemm(oxide.tile.partition(z, (bm, bn)), x, y)
    torch.cuda.synchronize()
    expected = (x.double() @ y.double()).to(dt_out)
    tol = 2e-2 if eout == "f16" else 1e-4 if ein == "f16" else 2e-6  # f32 inputs: f32-accurate products
    torch.testing.assert_close(z, expected, rtol=tol, atol=tol * np.sqrt(k))


def test_matvec_matches_torch(torch, tmp_path):
    mod = _module(tmp_path, {"matvec": [["4", "4", "16"]]})
    x = torch.randn(16, 16, device="cuda")
    v = torch.randn(16, device="cuda")
    z = torch.zeros(16, device="cuda")
    mod.matvec(oxide.tile.partition(z, (4,)), x, v)
    torch.cuda.synchronize()
    torch.testing.assert_close(z, (x.double() @ v.double()).float(), rtol=2e-6, atol=1e-5)
