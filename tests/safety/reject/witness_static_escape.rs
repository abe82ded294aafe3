use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
use cuda_device::thread::ThreadIndex;
static mut SAVED: Option<ThreadIndex<Index1D>> = None;
#[kernel]
pub unsafe fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    SAVED = Some(idx);
}
// expect: 7:5: cannot find value `SAVED` in this scope
