use cuda_device::{cooperative_launch, grid, kernel, launch_contract, thread};
#[kernel]
#[cooperative_launch]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn k(out: &mut [u32]) {
    if thread::threadIdx_x() < 32 {
        grid::sync();
    }
    out[0] = 1;
}
// expect: 7:9: `grid::sync()` runs under thread-dependent control flow: thread (0, 0, 0) reaches it but thread (32, 0, 0) of the same block does not; move the barrier out of the condition, so every thread of the block reaches it
