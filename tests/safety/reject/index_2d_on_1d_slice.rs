use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    if let Some(idx) = thread::index_2d::<64>() {
        if let Some(o) = out.get_mut(idx) {
            *o = 1.0;
        }
    }
}
// expect: 5:38: mismatched index spaces: this DisjointSlice is indexed by `Index1D`, the witness is `Index2D<64>`
