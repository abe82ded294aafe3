use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
pub struct DisjointSlice<T> {
    ptr: *mut T,
    len: usize,
}
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
}
// expect: 2:1: `DisjointSlice` is a cuda_device type; a local struct of that name would stand in for it without its safety checks: rename it
