use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
use cuda_device::thread::ThreadIndex;
struct Holder {
    idx: ThreadIndex<Index1D>,
}
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let h = Holder { idx: thread::index_1d() };
    if let Some(o) = out.get_mut(h.idx) {
        *o = 1.0;
    }
}
// expect: 4:10: a thread index witness cannot be stored in a struct field (`Holder.idx`): it proves ownership of one element for one thread, inside the kernel body; keep it in a local binding
