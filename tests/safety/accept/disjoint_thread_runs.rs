use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 1024> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    for k in 0..4 {
        S[t * 4 + k] = x[t * 4 + k];
    }
    thread::sync_threads();
    out[t] = S[1023 - t];
}
