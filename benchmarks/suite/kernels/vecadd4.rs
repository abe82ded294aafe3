// Vector add on 16-byte vectors, c[i] = a[i] + b[i] for one F4 (four f32) per thread: the same 12 bytes per
// float as vecadd, moved with one 128-bit load per input and one 128-bit store (ld.global.nc.v4, st.global.v4),
// which `#[repr(C, align(16))]` lets the compiler use.
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};

#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct F4([f32; 4]);

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub fn vecadd4(a: &[F4], b: &[F4], mut c: DisjointSlice<F4>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(out) = c.get_mut(idx) {
        let x = a[i];
        let y = b[i];
        *out = F4([x.0[0] + y.0[0], x.0[1] + y.0[1], x.0[2] + y.0[2], x.0[3] + y.0[3]]);
    }
}
