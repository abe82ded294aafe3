"""wgmma kernels on the emulator: TMA loads A and B into 128-byte-swizzled shared memory, an mbarrier wait,
then m64nNk16 bf16 MMAs over a K loop (the descriptors advanced 32 bytes per k-step), checked against
numpy; and each misuse of the warpgroup rules as a located error or deadlock report."""

from __future__ import annotations

import numpy as np
import pytest

import oxide
from oxide.runtime.emulator import Deadlock, launch
from oxide.runtime.emulator.errors import WarpDivergence
from oxide.runtime.emulator.shared_window import SharedMemoryError
from oxide.runtime.tensor_map import TensorMap

_GEMM = """use cuda_device::barrier::{fence_proxy_async_shared_cta, mbarrier_arrive, mbarrier_arrive_expect_tx,
                           mbarrier_init, mbarrier_wait, Barrier};
use cuda_device::tma::{cp_async_bulk_tensor_2d_g2s, TmaDescriptor};
use cuda_device::wgmma::*;
use cuda_device::{kernel, thread, SharedArray};

#[kernel]
pub unsafe fn k(a_map: *const TmaDescriptor, b_map: *const TmaDescriptor, out: *mut f32, k_tiles: u32) {
    static mut A: SharedArray<u8, 8192, 256> = SharedArray::UNINIT;
    static mut B: SharedArray<u8, {b_bytes}, 256> = SharedArray::UNINIT;
    static mut BAR: Barrier = Barrier::UNINIT;
    // The tiles come first in the block's shared memory (A at 0, B at 8192): each starts on the 1024-byte
    // repeat of the 128-byte swizzle, as TMA and the descriptors (base offset 0) want.
    let t = thread::threadIdx_x();
    if t == 0 {
        mbarrier_init(&raw mut BAR, {arrivals});
        fence_proxy_async_shared_cta();
    }
    thread::sync_threads();
    let mut acc: [f32; {regs}] = [0.0f32; {regs}];
    let mut kt = 0u32;
    while kt < k_tiles {
        if t == 0 {
            cp_async_bulk_tensor_2d_g2s(&raw mut A as *mut u8, a_map, (kt * 64) as i32, 0, &raw mut BAR);
            cp_async_bulk_tensor_2d_g2s(&raw mut B as *mut u8, b_map, (kt * 64) as i32, 0, &raw mut BAR);
        }
        let token = if t == 0 {
            mbarrier_arrive_expect_tx(&raw const BAR, 1, {tile_bytes})
        } else {
            mbarrier_arrive(&raw const BAR)
        };
        {wait}
        if {guard} {
            let mut s = 0u32;
            while s < 4 {
                let da = make_smem_desc_swizzle_128b(&raw const A as *const u8, 16, 1024) + (s as u64) * 2;
                let db = make_smem_desc_swizzle_128b(&raw const B as *const u8, 16, 1024) + (s as u64) * 2{skew};
                wgmma_fence();
                wgmma_mma_m64n{n}k16_f32_bf16(&mut acc, da, db);
                wgmma_commit_group();
                wgmma_wait_group::<0>();
                s += 1;
            }
        }
        thread::sync_threads();
        kt += 1;
    }
    let mut i = 0u32;
    while i < {regs} {
        *out.add((t * {regs} + i) as usize) = acc[i as usize];
        i += 1;
    }
}
"""


def _source(n: int, arrivals: int = 128, guard: str = "true", skew: str = "",
            wait: str = "mbarrier_wait(&raw const BAR, token);") -> str:
    return (_GEMM.replace("{b_bytes}", str(n * 128)).replace("{regs}", str(n // 2)).replace("{n}", str(n))
            .replace("{arrivals}", str(arrivals)).replace("{tile_bytes}", str((64 + n) * 128))
            .replace("{guard}", guard).replace("{skew}", skew).replace("{wait}", wait))


def _bf16(shape: tuple[int, int], seed: int) -> tuple[np.ndarray, np.ndarray]:
    values = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    bits = (values.view(np.uint32) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


def _run(source: str, n: int, k: int, threads: int = 128) -> np.ndarray:
    """Launch one block; the 64 x n result as the kernel's threads hold it, rearranged to rows and columns."""
    a_bits, _ = _bf16((64, k), 1)
    b_bits, _ = _bf16((n, k), 2)  # B is K x N, stored K-major: N rows of K
    module = oxide.compile(source, name="k.rs", chip="sm_90a")
    out = np.zeros(threads * n // 2, np.float32)
    launch(module.emulator, "k", (1, 1, 1), (threads, 1, 1),
           [TensorMap(a_bits, box=(64, 64), swizzle="128B"), TensorMap(b_bits, box=(n, 64), swizzle="128B"), out,
            k // 64])
    return _as_matrix(out[:128 * n // 2], n)


def _as_matrix(out: np.ndarray, n: int) -> np.ndarray:
    """The ISA's m64nNk16 accumulator layout: thread t, register i holds D[16 (t / 32) + (t % 32) / 4 +
    8 ((i / 2) % 2)][8 (i / 4) + 2 (t % 4) + i % 2]."""
    d = np.full((64, n), np.nan, np.float32)
    for t in range(128):
        for i in range(n // 2):
            d[16 * (t // 32) + t % 32 // 4 + 8 * (i // 2 % 2), 8 * (i // 4) + 2 * (t % 4) + i % 2] = out[t * n // 2 + i]
    return d


@pytest.mark.parametrize("n, k", [(64, 128), (256, 64)])
def test_tma_tiles_through_wgmma_match_numpy(n, k):
    d = _run(_source(n), n, k)
    _, a = _bf16((64, k), 1)
    _, b = _bf16((n, k), 2)
    np.testing.assert_allclose(d, a @ b.T, rtol=1e-5, atol=1e-4)


def test_a_block_that_is_not_whole_warpgroups_is_refused():
    with pytest.raises(WarpDivergence, match=r"(?s)only part of warpgroup 0: launch blocks of a multiple of 128.*k.rs:"):
        _run(_source(64, arrivals=96), 64, 64, threads=96)


def test_a_warpgroup_with_warps_that_skip_the_mma_deadlocks_with_a_report():
    with pytest.raises(Deadlock, match=r"(?s)waits for warps 2, 3 of its warpgroup to issue this wgmma.*k.rs:\d+"):
        _run(_source(64, guard="t < 64"), 64, 64)


def test_a_partial_warp_is_refused():
    with pytest.raises(WarpDivergence, match=r"(?s)wgmma_fence is executed by whole warpgroups .* some threads of "
                                             r"warp 0 inactive.*k.rs:\d+"):
        _run(_source(64, guard="t < 16"), 64, 64)


def test_descriptors_that_differ_between_warps_are_refused():
    with pytest.raises(WarpDivergence, match=r"(?s)warp \d issues this wgmma with descriptors .* but warp \d .* same "
                                             r"in every thread of the warpgroup.*k.rs:\d+"):
        _run(_source(64, skew=" + ((t / 32) as u64) * 2"), 64, 64)


def test_an_operand_a_tma_load_has_not_completed_is_located():
    # One arrival short, and nobody waits: the MMA reads the tiles while the loads' phase is still open.
    with pytest.raises(SharedMemoryError, match=r"(?s)TMA copy has not completed.*wait on the mbarrier.*k.rs:\d+"):
        _run(_source(64, arrivals=129, wait="let _ = token;"), 64, 64)
