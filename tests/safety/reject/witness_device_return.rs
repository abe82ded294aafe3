use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
use cuda_device::thread::ThreadIndex;
#[device]
fn mint() -> ThreadIndex<Index1D> {
    thread::index_1d()
}
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    if let Some(o) = out.get_mut(mint()) {
        *o = 1.0;
    }
}
// expect: 4:1: `mint` returns a thread index witness, which cannot leave the kernel body it was minted in; return the index value (`idx.get()`) or take the DisjointSlice as a parameter
