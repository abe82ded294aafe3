use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 128> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = x[t];
    thread::sync_threads();
    let v = S[127 - t];
    S[t] = v * 2.0;
    thread::sync_threads();
    out[t] = S[t];
}
// expect: 9:13: shared-memory write/read race on shared array `S`: thread (0, 0, 0) reads element 127 here while thread (127, 0, 0) writes it at 10:5, with no `sync_threads()` in between
