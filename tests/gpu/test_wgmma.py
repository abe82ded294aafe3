"""wgmma on the GPU for every input type (bf16, f16, tf32, e4m3, e5m2) and several N, against numpy: one
warpgroup TMA-loads a 64 x 128-byte tile of A and an N x 128-byte tile of B (K-major, 128-byte swizzle),
waits on an mbarrier, runs four wgmma m64nNk* steps of 32 bytes of K each (K = 64 bf16/f16, 32 tf32, 128
fp8 elements) with descriptors built by `make_smem_desc_swizzle_128b`, and writes the f32 accumulator
fragment. The kernels come from one template (KERNEL below) per (type, N). Without a GPU these tests skip."""

from __future__ import annotations

import numpy as np
import pytest

KERNEL = """
use cuda_device::barrier::*;
use cuda_device::tma::*;
use cuda_device::wgmma::*;
use cuda_device::{kernel, thread, DynamicSharedArray, SharedArray};

const A_BYTES: u32 = 64 * 128;

#[kernel]
pub unsafe fn mma(a_map: *const TmaDescriptor, b_map: *const TmaDescriptor, out: *mut f32) {
    static mut BAR: SharedArray<u64, 1> = SharedArray::UNINIT;
    let smem = DynamicSharedArray::<u8, 1024>::get();
    let bar = core::ptr::addr_of_mut!(BAR) as *mut u64;
    let tid = thread::threadIdx_x();
    if tid == 0 {
        mbarrier_init(bar, 1);
        fence_proxy_async_shared_cta();
    }
    thread::sync_threads();
    if tid == 0 {
        mbarrier_arrive_expect_tx(bar, 1, A_BYTES + N * 128);
        cp_async_bulk_tensor_2d_g2s(smem, a_map, 0, 0, bar);
        cp_async_bulk_tensor_2d_g2s(smem.add(A_BYTES as usize), b_map, 0, 0, bar);
    }
    mbarrier_wait_parity(bar, 0);
    let mut acc = [0.0f32; HALF_N];
    wgmma_fence();
    #[unroll]
    for kk in 0..4 {
        let da = make_smem_desc_swizzle_128b(smem.add(kk * 32), 16, 1024);
        let db = make_smem_desc_swizzle_128b(smem.add(A_BYTES as usize + kk * 32), 16, 1024);
        wgmma_mma_m64nNNkKK_f32_TYPE(&mut acc, da, db);
    }
    wgmma_commit_group();
    wgmma_wait_group::<0>();
    let lane = tid % 32;
    let row = (tid / 32) * 16 + lane / 4;
    let col = 2 * (lane % 4);
    #[unroll]
    for j in 0..NN / 8usize {
        let c = (col + 8 * j as u32) as usize;
        *out.add(row as usize * NN + c) = acc[4 * j];
        *out.add(row as usize * NN + c + 1) = acc[4 * j + 1];
        *out.add((row as usize + 8) * NN + c) = acc[4 * j + 2];
        *out.add((row as usize + 8) * NN + c + 1) = acc[4 * j + 3];
    }
}
"""
# (input type, K of one instruction, bytes per element, the torch dtype that holds the values)
TYPES = {"bf16": (16, 2, "bfloat16"), "f16": (16, 2, "float16"), "tf32": (8, 4, "float32"),
         "e4m3": (32, 1, "float8_e4m3fn"), "e5m2": (32, 1, "float8_e5m2")}
CASES = [("bf16", 64), ("bf16", 128), ("bf16", 256), ("f16", 64), ("f16", 256), ("tf32", 64), ("tf32", 128),
         ("e4m3", 64), ("e4m3", 256), ("e5m2", 128)]


def source(kind: str, n: int) -> str:
    k = TYPES[kind][0]
    return (KERNEL.replace("HALF_N", str(n // 2)).replace("NNkKK", f"{n}k{k}").replace("TYPE", kind)
            .replace("NN", str(n)).replace("N * 128", f"{n} * 128"))


def operands(torch, kind: str, rows: int, elements: int):
    """A rows x elements tensor of `kind` on the GPU, values exact in the type, and its float32 values."""
    dtype = getattr(torch, TYPES[kind][2])
    values = torch.randint(-8, 9, (rows, elements), device="cuda").float() / 4
    if kind == "tf32":  # wgmma reads tf32: keep the low 13 mantissa bits zero so the product is exact
        values = (values.view(torch.int32) & ~0x1FFF).view(torch.float32)
    data = values.to(dtype)
    return data, data.float().cpu().numpy()


@pytest.mark.parametrize("kind, n", CASES)
def test_wgmma_matches_numpy(cuda, tmp_path_factory, kind, n):
    import oxide
    from oxide.runtime import TensorMap

    path = tmp_path_factory.mktemp("wgmma") / f"mma_{kind}_{n}.rs"
    path.write_text(source(kind, n))
    module = oxide.load(path, target="gpu", chips=["sm_90a"])
    torch = pytest.importorskip("torch")
    elements = 128 // TYPES[kind][1]
    a, a_host = operands(torch, kind, 64, elements)
    b, b_host = operands(torch, kind, n, elements)
    if TYPES[kind][1] == 1:  # TMA copies bytes: fp8 tensors travel as uint8
        a, b = a.view(torch.uint8), b.view(torch.uint8)
    out = torch.zeros(64 * n, device="cuda", dtype=torch.float32)
    box_a, box_b = (64, elements), (n, elements)
    module.mma.unchecked[1, 128, None, 64 * 128 + n * 128](
        TensorMap(a, box_a, swizzle="128B"), TensorMap(b, box_b, swizzle="128B"), out)
    torch.cuda.synchronize()
    np.testing.assert_allclose(out.cpu().numpy().reshape(64, n), a_host @ b_host.T, rtol=1e-6, atol=1e-6)
