use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub unsafe fn k(p: *mut f32, n: usize) {
    let i = thread::index_1d().get();
    if i < n {
        *p.add(i) = i as f32;
    }
}
