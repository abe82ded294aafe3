// A two-phase reduction in one launch, with a grid-wide barrier between the phases (cooperative launch):
// every block writes its partial sum, `grid::sync()` waits for all of them, then block 0 adds the partials.
// The runtime launches the kernel cooperatively and refuses a grid whose blocks cannot all be resident.
use cuda_device::{cooperative_launch, grid, kernel, launch_contract, thread, SharedArray};

#[kernel]
#[cooperative_launch]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn grid_sum(x: &[f32], partials: &mut [f32], out: &mut [f32]) {
    static mut SUMS: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let block = thread::blockIdx_x() as usize;
    let threads = (thread::blockDim_x() * thread::gridDim_x()) as usize;
    // Phase 1: a grid-stride sum per thread, then per block.
    let mut sum = 0.0f32;
    let mut i = thread::index_1d().get();
    while i < x.len() {
        sum += x[i];
        i += threads;
    }
    SUMS[t] = sum;
    thread::sync_threads();
    let mut stride = 128;
    while stride > 0 {
        if t < stride {
            SUMS[t] = SUMS[t] + SUMS[t + stride];
        }
        thread::sync_threads();
        stride /= 2;
    }
    if t == 0 {
        partials[block] = SUMS[0];
    }
    // Phase 2: after every block's partial is written, block 0 reduces them.
    grid::sync();
    if block == 0 {
        let mut total = 0.0f32;
        let mut b = t;
        while b < partials.len() {
            total += partials[b];
            b += 256;
        }
        SUMS[t] = total;
        thread::sync_threads();
        let mut stride = 128;
        while stride > 0 {
            if t < stride {
                SUMS[t] = SUMS[t] + SUMS[t + stride];
            }
            thread::sync_threads();
            stride /= 2;
        }
        if t == 0 {
            out[0] = SUMS[0];
        }
    }
}
