use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(x: &[f32]) {
    static mut S: SharedArray<f32, 32> = SharedArray::UNINIT;
    S[0] = x[0];
}
// expect: 5:5: writing a `static mut` shared array is unsafe and requires an `unsafe` block
