use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut P: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    P[t] = x[t];
    thread::sync_threads();
    if t < 128 {
        P[t] = P[t] + P[t + 128];
    }
    thread::sync_threads();
    if t < 64 {
        P[t] = P[t] + P[t + 64];
    }
    thread::sync_threads();
    if t == 0 {
        out[0] = P[0];
    }
}
