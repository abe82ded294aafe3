use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (64, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32], shift: usize) {
    static mut S: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = x[t];
    S[t + shift] = x[t] * 2.0;
    thread::sync_threads();
    out[t] = S[t];
}
// expect-warning: 7:5: shared-memory write/write race on shared array `S`: thread (1, 0, 0) writes element 1 here while thread (0, 0, 0) writes it at 8:5, with no `sync_threads()` in between (when a kernel parameter is 1)
