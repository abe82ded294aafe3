use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut P: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    P[t] = x[t];
    thread::sync_threads();
    let mut stride = 128;
    while stride > 0 {
        if t < stride {
            P[t] = P[t] + P[t + stride];
        }
        stride /= 2;
    }
    if t == 0 {
        out[0] = P[0];
    }
}
// expect-warning: 12:27: shared-memory write/read race on shared array `P`: thread (0, 0, 0) reads element 1 here while thread (1, 0, 0) writes it at 12:13, with no `sync_threads()` in between (when a local variable is 1 in the first thread's iteration and 2 in the second's)
