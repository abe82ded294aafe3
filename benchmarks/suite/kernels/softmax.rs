// Row softmax, one 256-thread block per row: a max reduction, a sum of exponentials, then the normalised
// write (warp shuffles inside each warp, one shared slot per warp across warps).
use cuda_device::{kernel, launch_contract, thread, warp, SharedArray};

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn softmax(x: &[f32], cols: usize, out: &mut [f32]) {
    static mut PART: SharedArray<f32, 8> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let base = thread::blockIdx_x() as usize * cols;
    let mut m = f32::NEG_INFINITY;
    let mut j = t;
    while j < cols {
        m = m.max(x[base + j]);
        j += 256;
    }
    let mut offset = 16;
    while offset > 0 {
        m = m.max(warp::shuffle_xor_f32(m, offset));
        offset /= 2;
    }
    if t % 32 == 0 {
        PART[t / 32] = m;
    }
    thread::sync_threads();
    let mut row_max = PART[0];
    for w in 1..8 {
        row_max = row_max.max(PART[w]);
    }
    thread::sync_threads();
    let mut s = 0.0f32;
    let mut j = t;
    while j < cols {
        s += (x[base + j] - row_max).exp();
        j += 256;
    }
    let mut offset = 16;
    while offset > 0 {
        s += warp::shuffle_xor_f32(s, offset);
        offset /= 2;
    }
    if t % 32 == 0 {
        PART[t / 32] = s;
    }
    thread::sync_threads();
    let mut total = 0.0f32;
    for w in 0..8 {
        total += PART[w];
    }
    let inv = 1.0 / total;
    let mut j = t;
    while j < cols {
        out[base + j] = (x[base + j] - row_max).exp() * inv;
        j += 256;
    }
}
