use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 2, block = (16, 16, 1))]
pub fn k(mut out: DisjointSlice<f32, Index2D<64>>) {
    if let Some(idx) = thread::index_2d::<64>() {
        let i = idx.get();
        if let Some(o) = out.get_mut(idx) {
            *o = i as f32;
        }
    }
}
