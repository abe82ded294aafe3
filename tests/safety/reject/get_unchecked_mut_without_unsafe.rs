use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    *out.get_unchecked_mut(i) = 1.0;
}
// expect: 5:6: `get_unchecked_mut` is unsafe and requires an `unsafe` block
