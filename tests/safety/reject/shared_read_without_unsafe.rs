use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    static mut S: SharedArray<f32, 32> = SharedArray::UNINIT;
    let v = S[0];
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
// expect: 5:13: reading a `static mut` shared array is unsafe and requires an `unsafe` block
