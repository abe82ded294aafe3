use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>, fill: f32) {
    let idx = thread::index_1d();
    match out.get_mut(idx) {
        Some(o) => *o = fill,
        None => {}
    }
}
