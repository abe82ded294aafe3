use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    if let Some(o) = out.get_mut(i) {
        *o = 1.0;
    }
}
// expect: 5:34: `get_mut` takes a thread index (a witness), not `usize`; raw indices need `unsafe { get_unchecked_mut(i) }`
