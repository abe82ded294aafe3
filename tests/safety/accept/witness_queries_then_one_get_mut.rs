use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let valid = idx.is_valid();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = if valid { i as u32 } else { 0 };
    }
}
