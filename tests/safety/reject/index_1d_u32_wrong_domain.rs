use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
#[kernel]
#[launch_contract(domain = 2, block = (16, 16, 1), coordinates = u32)]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d_u32();
    if let Some(o) = out.get_mut(idx) {
        *o = 1.0;
    }
}
// expect: 5:15: index_1d_u32 needs the kernel's launch contract to state domain = 1 and coordinates = u32 (the host then proves grid x block fits in 32 bits)
