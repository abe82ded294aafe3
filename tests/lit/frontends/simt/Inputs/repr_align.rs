use cuda_device::{kernel, launch_contract, thread, DisjointSlice, SharedArray};

#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct F4([f32; 4]);

#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct F3([f32; 3]);

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

#[kernel]
pub fn scale3(a: &[F3], s: f32, mut c: DisjointSlice<F3>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(out) = c.get_mut(idx) {
        let x = a[i];
        *out = F3([x.0[0] * s, x.0[1] * s, x.0[2] * s]);
    }
}

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn reverse4(a: &[F4], mut c: DisjointSlice<F4>) {
    static mut TILE: SharedArray<F4, 256> = SharedArray::UNINIT;
    let idx = thread::index_1d();
    let i = idx.get();
    let t = thread::threadIdx_x() as usize;
    TILE[t] = a[i];
    thread::sync_threads();
    if let Some(o) = c.get_mut(idx) {
        *o = TILE[255 - t];
    }
}
