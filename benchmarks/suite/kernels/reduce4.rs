// Sum reduction over 16-byte vectors: the reduce kernel's algorithm (grid-stride loop, warp shuffle tree, one
// shared slot per warp, one atomic add per block) with one F4 (four f32, one ld.global.nc.v4) per iteration,
// so each thread keeps four times the bytes in flight.
use cuda_device::atomic::{AtomicOrdering, DeviceAtomicF32};
use cuda_device::{kernel, launch_contract, thread, warp, SharedArray};

#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct F4([f32; 4]);

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn reduce_sum4(x: &[F4], out: &[DeviceAtomicF32]) {
    static mut WARP_SUMS: SharedArray<f32, 8> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let stride = (thread::gridDim_x() as usize) * 256;
    let mut i = thread::index_1d().get();
    let mut v = 0.0f32;
    while i < x.len() {
        let q = x[i];
        v += (q.0[0] + q.0[1]) + (q.0[2] + q.0[3]);
        i += stride;
    }
    let mut offset = 16;
    while offset > 0 {
        v += warp::shuffle_xor_f32(v, offset);
        offset /= 2;
    }
    if t % 32 == 0 {
        WARP_SUMS[t / 32] = v;
    }
    thread::sync_threads();
    if t < 32 {
        let mut w = if t < 8 { WARP_SUMS[t] } else { 0.0f32 };
        let mut offset = 16;
        while offset > 0 {
            w += warp::shuffle_xor_f32(w, offset);
            offset /= 2;
        }
        if t == 0 {
            out[0].fetch_add(w, AtomicOrdering::Relaxed);
        }
    }
}
