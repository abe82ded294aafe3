use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), dynamic_shared = 512)]
pub fn k(x: &[f32]) {
    let s = DynamicSharedArray::<f32, 16>::get();
    *s = x[0];
}
// expect: 6:5: writing through a raw pointer is unsafe and requires an `unsafe` block
