use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
use cuda_device::thread::ThreadIndex;
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = ThreadIndex::new(0);
    if let Some(o) = out.get_mut(idx) {
        *o = 1.0;
    }
}
// expect: 5:15: cannot find function `ThreadIndex::new` in this scope
