use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 1028> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    for k in 0..5 {
        S[t * 4 + k] = x[t];
    }
    thread::sync_threads();
    out[t] = S[t];
}
// expect: 8:9: shared-memory write/write race on shared array `S`: thread (1, 0, 0) writes element 4 here while thread (0, 0, 0) writes it too, with no `sync_threads()` in between (when a loop counter is 0 in the first thread's iteration and 4 in the second's)
