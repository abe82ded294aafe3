// Shared-memory block reduction: each block sums 256 inputs into out[blockIdx.x].
use cuda_device::{kernel, launch_contract, thread, SharedArray};

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn block_sum(x: &[f32], out: &mut [f32]) {
    static mut PARTIAL: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let i = thread::index_1d().get();
    PARTIAL[t] = if i < x.len() { x[i] } else { 0.0 };
    thread::sync_threads();
    let mut stride = 128;
    while stride > 0 {
        if t < stride {
            PARTIAL[t] = PARTIAL[t] + PARTIAL[t + stride];
        }
        thread::sync_threads();
        stride /= 2;
    }
    if t == 0 {
        out[thread::blockIdx_x() as usize] = PARTIAL[0];
    }
}
