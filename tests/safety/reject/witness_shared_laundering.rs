use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
use cuda_device::thread::ThreadIndex;
#[kernel]
pub unsafe fn k(mut out: DisjointSlice<f32>) {
    static mut COURIER: SharedArray<ThreadIndex<Index1D>, 1> = SharedArray::UNINIT;
    COURIER[0] = thread::index_1d();
}
// expect: 5:37: a SharedArray of `ThreadIndex<Index1D>` elements is not supported in device code (elements must be integers, floats, bools, fieldless enums, or arrays, tuples and structs of them)
