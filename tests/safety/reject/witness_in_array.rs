use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let both = [thread::index_1d(), thread::index_1d()];
    if let Some(o) = out.get_mut(both[0]) {
        *o = 1.0;
    }
}
// expect: 4:16: arrays of `ThreadIndex<Index1D>` are not supported in device code yet
