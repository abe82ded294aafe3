use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let twin = idx.clone();
    if let Some(o) = out.get_mut(twin) {
        *o = 1.0;
    }
}
// expect: 5:16: a thread index witness is not Clone: a copy would let two writes claim the same element; mint a new one with `thread::index_1d()` if needed
