use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[0] = x[t];
    thread::sync_threads();
    out[t] = S[0];
}
// expect: 7:5: shared-memory write/write race on shared array `S`: thread (0, 0, 0) writes element 0 here while thread (1, 0, 0) writes it too, with no `sync_threads()` in between
