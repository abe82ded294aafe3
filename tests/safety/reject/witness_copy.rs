use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let twin = idx;
    if let Some(o) = out.get_mut(idx) {
        *o = 1.0;
    }
    if let Some(o) = out.get_mut(twin) {
        *o = 2.0;
    }
}
// expect: 6:34: use of moved thread index witness `idx` (moved at 5:16): a witness is not Copy, so it can be used for one `get_mut` only
