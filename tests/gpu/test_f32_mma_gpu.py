"""tile mma of f32 tiles is f32-accurate on the GPU (docs/tile-mma.md, "f32 and tf32"): a GEMM K loop of f32
tiles (3xTF32 on mma.sync; on sm_90a the cp.async pipeline, not wgmma) against torch with TF32 off, at a
tolerance a tf32 product fails; the same kernel over `tf32` tiles still multiplies at tf32 precision. Compiled
here for the device's chip."""

from __future__ import annotations

import numpy as np
import pytest

import oxide.tile

SOURCE = """
#[cutile::module]
mod f32_mma {
    use cutile::core::*;

    #[cutile::entry()]
    fn gemm<E: ElementType, const BM: i32, const BN: i32, const BK: i32>(
        z: &mut Tensor<f32, { [BM, BN] }>, x: &Tensor<E, { [-1, -1] }>, y: &Tensor<E, { [-1, -1] }>) {
        let pid = get_tile_block_id();
        let part_x = x.partition(const_shape![BM, BK]);
        let part_y = y.partition(const_shape![BK, BN]);
        let mut acc = constant(0.0f32, const_shape![BM, BN]);
        for k in 0..num_tiles(&part_x, 1) {
            acc = mma(part_x.load([pid.0, k]), part_y.load([k, pid.1]), acc);
        }
        z.store(acc);
    }
}
"""
TILES = [(64, 64, 32), (128, 128, 32)]
SHAPES = [(128, 128, 64), (300, 264, 104), (1024, 1024, 1024)]


@pytest.fixture(scope="module")
def torch(cuda):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    torch.backends.cuda.matmul.allow_tf32 = False
    return torch


def _gemm(torch, tmp_path, elem, tile, m, n, k):
    pytest.importorskip("mlir")  # compiled here for the device's chip
    path = tmp_path / "f32_mma.rs"
    path.write_text(SOURCE)
    bm, bn, bk = tile
    module = oxide.load(path, target="gpu", instances={"gemm": [[elem, str(bm), str(bn), str(bk)]]})
    x = torch.randn(m, k, device="cuda")
    y = torch.randn(k, n, device="cuda")
    z = torch.full((m, n), float("nan"), device="cuda")
    getattr(module, f"gemm_{elem}_{bm}_{bn}_{bk}")(oxide.tile.partition(z, (bm, bn)), x, y)
    torch.cuda.synchronize()
    return x, y, z


def _tf32(torch, t):
    return t.view(torch.int32).add(0x1000).bitwise_and(-8192).view(torch.float32)


@pytest.mark.parametrize("tile", TILES)
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_f32_gemm_is_f32_accurate(torch, tmp_path, tile, m, n, k):
    x, y, z = _gemm(torch, tmp_path, "f32", tile, m, n, k)
    exact = x.double() @ y.double()
    tol = dict(rtol=1e-5, atol=1e-5 * np.sqrt(k))
    torch.testing.assert_close(z, (x @ y), **tol)  # torch's f32 GEMM with TF32 off
    torch.testing.assert_close(z.double(), exact, **tol)
    tf32 = (_tf32(torch, x).double() @ _tf32(torch, y).double())
    assert not torch.allclose(tf32, exact, **tol)  # the tolerance would catch tf32 products


@pytest.mark.parametrize("m,n,k", SHAPES)
def test_tf32_gemm_keeps_tf32_products(torch, tmp_path, m, n, k):
    x, y, z = _gemm(torch, tmp_path, "tf32", (64, 64, 32), m, n, k)
    expected = _tf32(torch, x).double() @ _tf32(torch, y).double()
    torch.testing.assert_close(z.double(), expected, rtol=1e-4, atol=1e-4 * np.sqrt(k))
