// A 2-D copy through shared memory with the Tensor Memory Accelerator (sm_90): each block's thread 0 loads a
// 32 x 32 f32 tile of the source into a 128-byte-swizzled shared tile with one TMA copy that completes on an
// mbarrier; every thread waits for the barrier's phase, adds up one row of the tile, and thread 0 stores the
// tile back to the destination with one TMA store. Edge tiles hang over the matrix: the load fills the
// missing elements with zeros (so the row sums count only real elements) and the store skips them.
use cuda_device::barrier::{fence_proxy_async_shared_cta, mbarrier_arrive, mbarrier_arrive_expect_tx, mbarrier_init,
                           mbarrier_wait, Barrier};
use cuda_device::tma::{cp_async_bulk_commit_group, cp_async_bulk_tensor_2d_g2s, cp_async_bulk_tensor_2d_s2g,
                       cp_async_bulk_wait_group, TmaDescriptor};
use cuda_device::{kernel, thread, SharedArray};

const TILE_BYTES: u32 = 32 * 32 * 4;

#[kernel]
pub unsafe fn tma_copy(src: *const TmaDescriptor, dst: *const TmaDescriptor, row_sums: *mut f32) {
    static mut TILE: SharedArray<f32, 1024, 256> = SharedArray::UNINIT;
    static mut BAR: Barrier = Barrier::UNINIT;
    // A 128-byte swizzle wants its tile aligned to 1024 bytes (8 rows of 128 bytes): naming the tile first
    // places it first, at the start of the block's shared memory.
    let tile = &raw mut TILE as *mut u8;
    let t = thread::threadIdx_x();
    let col = (thread::blockIdx_x() * 32) as i32;
    let row = (thread::blockIdx_y() * 32) as i32;
    if t == 0 {
        mbarrier_init(&raw mut BAR, 32); // every thread of the block arrives once
        fence_proxy_async_shared_cta(); // the barrier's init is visible to the TMA unit
    }
    thread::sync_threads();
    if t == 0 {
        cp_async_bulk_tensor_2d_g2s(tile, src, col, row, &raw mut BAR);
    }
    let token = if t == 0 {
        mbarrier_arrive_expect_tx(&raw const BAR, 1, TILE_BYTES)
    } else {
        mbarrier_arrive(&raw const BAR)
    };
    mbarrier_wait(&raw const BAR, token);
    // The swizzle permutes 16-byte chunks within each 128-byte row: a row's elements stay in that row.
    let mut sum = 0.0f32;
    let mut k = 0;
    while k < 32 {
        sum += TILE[(t * 32 + k) as usize];
        k += 1;
    }
    let block = thread::blockIdx_y() * thread::gridDim_x() + thread::blockIdx_x();
    *row_sums.add((block * 32 + t) as usize) = sum;
    thread::sync_threads();
    if t == 0 {
        cp_async_bulk_tensor_2d_s2g(tile as *const u8, dst, col, row);
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group(0);
    }
}
