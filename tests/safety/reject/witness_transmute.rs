use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
use cuda_device::thread::ThreadIndex;
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx: ThreadIndex<Index1D> = unsafe { core::mem::transmute(0usize) };
    if let Some(o) = out.get_mut(idx) {
        *o = 1.0;
    }
}
// expect: 5:46: `mem::transmute` from `usize` to `ThreadIndex<Index1D>` is not supported in device code (only between integers, floats, byte arrays and pointers of one size)
