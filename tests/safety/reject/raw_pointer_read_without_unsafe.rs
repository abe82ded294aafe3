use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(p: *const f32, mut out: DisjointSlice<f32>) {
    let v = *p;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
// expect: 4:13: dereferencing a raw pointer is unsafe and requires an `unsafe` block
