// STREAM triad on 16-byte vectors, a[i] = b[i] + s * c[i] for one F4 (four f32) per thread: the same bytes and
// flops per float as triad, moved with 128-bit loads and stores (`#[repr(C, align(16))]`).
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};

#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct F4([f32; 4]);

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub fn triad4(b: &[F4], c: &[F4], s: f32, mut a: DisjointSlice<F4>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(out) = a.get_mut(idx) {
        let x = b[i];
        let y = c[i];
        *out = F4([x.0[0] + s * y.0[0], x.0[1] + s * y.0[1], x.0[2] + s * y.0[2], x.0[3] + s * y.0[3]]);
    }
}
