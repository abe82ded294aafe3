// A Hopper bf16 GEMM in SIMT style (sm_90a): C = A * B^T, A [M, K] and B [N, K] row-major bf16 (both
// K-major, as wgmma reads them), C [M, N] row-major bf16, accumulated in f32.
//
// One block computes a 128 x 256 tile of C with three warpgroups. Warpgroup 0 is the producer: one of its
// threads streams 128 x 64 tiles of A and 256 x 64 tiles of B into shared memory with TMA (128-byte
// swizzle), through a ring of STAGES buffers guarded by two mbarriers each ("full": the bytes landed;
// "empty": both consumers are done with it). Warpgroups 1 and 2 are consumers: each multiplies 64 rows of
// the A tile by the B tile with four wgmma m64n256k16 per K step, keeping one group of MMAs in flight, and
// accumulates 64 x 256 f32 values in registers (128 per thread). setmaxnreg moves registers from the
// producer (which needs few) to the consumers. The epilogue converts pairs of accumulators to bf16 and
// stores them; rows and columns past M and N are not written (TMA fills reads past the edges with zeros).
use cuda_device::barrier::*;
use cuda_device::convert::cvt_rn_bf16x2_f32;
use cuda_device::tma::*;
use cuda_device::wgmma::*;
use cuda_device::{kernel, launch_bounds, thread, DynamicSharedArray, SharedArray};

const BM: u32 = 128;
const BN: u32 = 256;
const BK: u32 = 64;
const STAGES: u32 = 4;
const A_BYTES: u32 = BM * BK * 2;
const B_BYTES: u32 = BN * BK * 2;
const STAGE_BYTES: u32 = A_BYTES + B_BYTES;

#[kernel]
#[launch_bounds(384, 1)]
pub unsafe fn gemm_bf16(a_map: *const TmaDescriptor, b_map: *const TmaDescriptor, c: *mut u32, m: u32, n: u32,
                        k: u32) {
    static mut FULL: SharedArray<u64, 4> = SharedArray::UNINIT;
    static mut EMPTY: SharedArray<u64, 4> = SharedArray::UNINIT;
    // 1024-byte alignment: the 128-byte swizzle repeats every 8 rows of 128 bytes, and the TMA copies and the
    // wgmma descriptors must agree on where the pattern starts.
    let smem = DynamicSharedArray::<u8, 1024>::get();
    let full = core::ptr::addr_of_mut!(FULL) as *mut u64;
    let empty = core::ptr::addr_of_mut!(EMPTY) as *mut u64;
    let tid = thread::threadIdx_x();
    let warpgroup = tid / 128;
    let m0 = thread::blockIdx_y() * BM;
    let n0 = thread::blockIdx_x() * BN;
    let k_tiles = (k + BK - 1) / BK;
    if tid == 0 {
        let mut s = 0;
        while s < STAGES {
            mbarrier_init(full.add(s as usize), 1);
            mbarrier_init(empty.add(s as usize), 2);
            s += 1;
        }
        fence_proxy_async_shared_cta();
    }
    thread::sync_threads();
    if warpgroup == 0 {
        setmaxnreg_dec::<40>();
        if tid == 0 {
            let mut kt = 0;
            while kt < k_tiles {
                let s = kt % STAGES;
                // A fresh barrier's "previous phase" counts as complete, so the first pass does not wait.
                mbarrier_wait_parity(empty.add(s as usize), ((kt / STAGES) & 1) ^ 1);
                let stage = smem.add((s * STAGE_BYTES) as usize);
                mbarrier_arrive_expect_tx(full.add(s as usize), 1, STAGE_BYTES);
                cp_async_bulk_tensor_2d_g2s(stage, a_map, (kt * BK) as i32, m0 as i32, full.add(s as usize));
                cp_async_bulk_tensor_2d_g2s(stage.add(A_BYTES as usize), b_map, (kt * BK) as i32, n0 as i32,
                                            full.add(s as usize));
                kt += 1;
            }
        }
    } else {
        setmaxnreg_inc::<232>();
        let rows = (warpgroup - 1) * 64; // this consumer's rows of the block's tile
        let mut acc = [0.0f32; 128];
        let mut kt = 0;
        while kt < k_tiles {
            let s = kt % STAGES;
            mbarrier_wait_parity(full.add(s as usize), (kt / STAGES) & 1);
            let a_tile = smem.add((s * STAGE_BYTES + rows * BK * 2) as usize);
            let b_tile = smem.add((s * STAGE_BYTES + A_BYTES) as usize);
            wgmma_fence();
            #[unroll]
            for kk in 0..4 {
                // K-major, 128-byte swizzle: 8-row groups 1024 bytes apart; a 16-element K step is 32 bytes.
                let da = make_smem_desc_swizzle_128b(a_tile.add(kk * 32), 16, 1024);
                let db = make_smem_desc_swizzle_128b(b_tile.add(kk * 32), 16, 1024);
                wgmma_mma_m64n256k16_f32_bf16(&mut acc, da, db);
            }
            wgmma_commit_group();
            // Keep this step's MMAs in flight; the previous step's are done, so its stage can be refilled.
            wgmma_wait_group::<1>();
            if kt > 0 && tid % 128 == 0 {
                mbarrier_arrive(empty.add(((kt - 1) % STAGES) as usize));
            }
            kt += 1;
        }
        wgmma_wait_group::<0>();
        // The accumulator fragment: warp w of the warpgroup owns rows 16w..16w+15; lane l holds, for each
        // 8-column chunk j, (row l/4, columns 8j + 2(l%4) + {0, 1}) in acc[4j], acc[4j+1] and the same
        // columns of row l/4 + 8 in acc[4j+2], acc[4j+3].
        let lane = tid % 32;
        let row = m0 + rows + ((tid % 128) / 32) * 16 + lane / 4;
        let col = n0 + 2 * (lane % 4);
        #[unroll]
        for j in 0..32 {
            let cc = col + 8 * j as u32;
            if row < m && cc < n {
                *c.add(((row * n + cc) / 2) as usize) = cvt_rn_bf16x2_f32(acc[4 * j], acc[4 * j + 1]);
            }
            if row + 8 < m && cc < n {
                *c.add((((row + 8) * n + cc) / 2) as usize) = cvt_rn_bf16x2_f32(acc[4 * j + 2], acc[4 * j + 3]);
            }
        }
    }
}
