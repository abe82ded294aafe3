use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(p: *mut f32) {
    *p = 1.0;
}
// expect: 4:5: writing through a raw pointer is unsafe and requires an `unsafe` block
