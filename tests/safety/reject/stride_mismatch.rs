use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
#[kernel]
#[launch_contract(domain = 2)]
#[launch_bounds(256)]
pub fn k(mut out: DisjointSlice<f32, Index2D<256>>) {
    if let Some(idx) = thread::index_2d::<128>() {
        if let Some(o) = out.get_mut(idx) {
            *o = 1.0;
        }
    }
}
// expect: 7:38: mismatched index spaces: this DisjointSlice is indexed by `Index2D<256>`, the witness is `Index2D<128>`
