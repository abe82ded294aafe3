use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(p: *const f32, n: usize, mut out: DisjointSlice<f32>) {
    let s = core::slice::from_raw_parts(p, n);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = s[0];
    }
}
// expect: 4:13: `slice::from_raw_parts` is unsafe and requires an `unsafe` block
