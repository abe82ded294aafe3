use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = x[t];
    if t < 128 {
        thread::sync_threads();
    }
    out[t] = S[255 - t];
}
// expect: 9:9: `sync_threads()` runs under thread-dependent control flow: thread (0, 0, 0) reaches it but thread (128, 0, 0) of the same block does not; move the barrier out of the condition, so every thread of the block reaches it
