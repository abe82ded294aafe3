use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    out[i] = 1.0;
}
// expect: 5:5: a DisjointSlice is written only through `get_mut(thread_index)`
