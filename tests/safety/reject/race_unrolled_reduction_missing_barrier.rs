use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
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
    if t < 64 {
        P[t] = P[t] + P[t + 64];
    }
    thread::sync_threads();
    if t == 0 {
        out[0] = P[0];
    }
}
// expect: 10:9: shared-memory write/read race on shared array `P`: thread (64, 0, 0) writes element 64 here while thread (0, 0, 0) reads it at 13:23, with no `sync_threads()` in between
