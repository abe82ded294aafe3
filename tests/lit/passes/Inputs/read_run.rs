use cuda_device::{kernel, thread};

#[kernel]
pub unsafe fn five_point(x: &[f32], w: usize, out: &mut [f32]) {
    let i = thread::threadIdx_x() as usize + w;
    let s = x[i] + x[i - 1] + x[i + 1] + x[i - w] + x[i + w];
    out[i] = s;
}
