use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(out: &mut [f32]) {
    let i = thread::index_1d().get();
    out[i] = 1.0;
}
// expect: 3:10: a `&mut [T]` kernel parameter lets every thread write every element, which is unsafe; take a `DisjointSlice<T>` or mark the kernel `unsafe fn`
