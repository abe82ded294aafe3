use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let other = warp::shuffle(idx, 0);
    if let Some(o) = out.get_mut(other) {
        *o = 1.0;
    }
}
// expect: 5:31: mismatched types: expected `u32`, found `ThreadIndex<Index1D>`
