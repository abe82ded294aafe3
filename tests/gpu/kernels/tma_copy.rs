// A 2-D TMA box copy: one thread loads the box at (row0, col0) of the tensor map into shared memory
// (completion counted in bytes on an mbarrier), every thread copies the box out, and one thread stores it
// back with a TMA store to the box at the same coordinates of a second map.
use cuda_device::barrier::{Barrier, fence_proxy_async_shared_cta, mbarrier_arrive, mbarrier_arrive_expect_tx,
                           mbarrier_init, mbarrier_try_wait};
use cuda_device::tma::{TmaDescriptor, cp_async_bulk_commit_group, cp_async_bulk_tensor_2d_g2s,
                       cp_async_bulk_tensor_2d_s2g, cp_async_bulk_wait_group};
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

const ROWS: usize = 16;
const COLS: usize = 32;
const BOX: usize = ROWS * COLS;

#[kernel]
pub fn tma_box(src: *const TmaDescriptor, dst: &TmaDescriptor, mut out: DisjointSlice<f32>, col0: i32, row0: i32) {
    static mut TILE: SharedArray<f32, BOX, 128> = SharedArray::UNINIT;
    static mut BAR: Barrier = Barrier::UNINIT;
    let tid = thread::threadIdx_x();
    if tid == 0 {
        unsafe {
            mbarrier_init(&raw mut BAR, thread::blockDim_x());
            fence_proxy_async_shared_cta();
        }
    }
    thread::sync_threads();
    if tid == 0 {
        unsafe { cp_async_bulk_tensor_2d_g2s(&raw mut TILE as *mut u8, src, col0, row0, &raw mut BAR); }
    }
    let token = unsafe {
        if tid == 0 { mbarrier_arrive_expect_tx(&raw const BAR, 1, (BOX * 4) as u32) } else { mbarrier_arrive(&raw const BAR) }
    };
    unsafe { while !mbarrier_try_wait(&raw const BAR, token) {} }
    let gid = thread::index_1d();
    let i = gid.get();
    if i < BOX {
        let v = unsafe { TILE[i] };
        if let Some(o) = out.get_mut(gid) { *o = v; }
    }
    thread::sync_threads();
    if tid == 0 {
        unsafe {
            cp_async_bulk_tensor_2d_s2g(&raw const TILE as *const u8, dst, col0, row0);
        }
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group(0);
    }
}
