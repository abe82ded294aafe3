use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 257> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = x[t];
    out[t] = S[t + 1];
}
// expect: 7:5: shared-memory write/read race on shared array `S`: thread (1, 0, 0) writes element 1 here while thread (0, 0, 0) reads it at 8:14, with no `sync_threads()` in between
