use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1), coordinates = u32)]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d_u32();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = i as u32;
    }
}
