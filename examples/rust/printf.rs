// gpu_printf! with Rust-style placeholders: the first thread of each block reports.
use cuda_device::{gpu_printf, kernel, thread};

#[kernel]
pub fn hello(scale: f32) {
    let t = thread::threadIdx_x();
    if t == 0 {
        let b = thread::blockIdx_x();
        gpu_printf!("block {} of {}: scale = {:.3}, mask {:#x}\n", b, thread::gridDim_x(), scale, 0xffu32);
    }
}
