use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32], n: usize) {
    static mut S: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    if t >= n {
        return;
    }
    S[t] = x[t];
    thread::sync_threads();
    out[t] = S[255 - t];
}
// expect-warning: 11:5: `sync_threads()` runs under thread-dependent control flow: whether a thread reaches it depends on the thread; move the barrier out of the condition, so every thread of the block reaches it
