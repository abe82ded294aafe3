use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 1> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    if t == 0 {
        S[0] = x[0];
    }
    thread::sync_threads();
    out[t] = S[0] + x[t];
}
