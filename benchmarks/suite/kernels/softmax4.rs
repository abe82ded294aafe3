// Row softmax over 16-byte vectors: the softmax kernel's algorithm (one 256-thread block per row; max, sum of
// exponentials, normalised write) with one F4 (four f32) per load and per store, `cols4` F4s per row.
use cuda_device::{kernel, launch_contract, thread, warp, SharedArray};

#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct F4([f32; 4]);

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn softmax4(x: &[F4], cols4: usize, out: &mut [F4]) {
    static mut PART: SharedArray<f32, 8> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let base = thread::blockIdx_x() as usize * cols4;
    let mut m = f32::NEG_INFINITY;
    let mut j = t;
    while j < cols4 {
        let q = x[base + j];
        m = m.max(q.0[0].max(q.0[1])).max(q.0[2].max(q.0[3]));
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
    while j < cols4 {
        let q = x[base + j];
        s += ((q.0[0] - row_max).exp() + (q.0[1] - row_max).exp())
            + ((q.0[2] - row_max).exp() + (q.0[3] - row_max).exp());
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
    while j < cols4 {
        let q = x[base + j];
        out[base + j] = F4([
            (q.0[0] - row_max).exp() * inv,
            (q.0[1] - row_max).exp() * inv,
            (q.0[2] - row_max).exp() * inv,
            (q.0[3] - row_max).exp() * inv,
        ]);
        j += 256;
    }
}
