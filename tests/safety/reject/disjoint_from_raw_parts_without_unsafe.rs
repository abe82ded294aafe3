use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(p: *mut f32, n: usize) {
    let mut out = DisjointSlice::<f32>::from_raw_parts(p, n);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = 1.0;
    }
}
// expect: 4:19: `DisjointSlice::from_raw_parts` is unsafe and requires an `unsafe` block
