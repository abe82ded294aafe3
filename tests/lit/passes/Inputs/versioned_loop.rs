use cuda_device::{kernel, thread};

#[kernel]
pub unsafe fn row_sum(x: &[f32], cols: usize, out: &mut [f32]) {
    let base = thread::blockIdx_x() as usize * cols;
    let mut j = thread::threadIdx_x() as usize;
    let mut s = 0.0f32;
    while j < cols {
        s += x[base + j];
        j += 256;
    }
    out[thread::blockIdx_x() as usize] = s;
}

#[kernel]
pub unsafe fn column_sum(x: &[f32], rows: usize, cols: usize, out: &mut [f32]) {
    let c = thread::threadIdx_x() as usize;
    let mut s = 0.0f32;
    for r in 0..rows {
        s += x[r * cols + c];
    }
    out[c] = s;
}

#[kernel]
pub unsafe fn tile_copy(x: &[f32], cols: usize, out: &mut [f32]) {
    let r0 = thread::blockIdx_x() as usize * 4;
    for j in 0..4 {
        for i in (0..64).step_by(32) {
            let c = thread::threadIdx_x() as usize + i;
            out[(r0 + j) * cols + c] = x[(r0 + j) * cols + c];
        }
    }
}
