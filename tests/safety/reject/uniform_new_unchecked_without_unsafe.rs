use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
use cuda_device::uniform::Uniform;
#[kernel]
pub fn k(n: u32, mut out: DisjointSlice<u32>) {
    let u = Uniform::new_unchecked(n);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = u.get();
    }
}
// expect: 5:13: `Uniform::new_unchecked` is unsafe and requires an `unsafe` block
