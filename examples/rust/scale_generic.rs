// A generic kernel: instantiated per element type by the host (entries scale_f32, scale_f64, ...).
use core::ops::Mul;
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn scale<T: Copy + Mul<Output = T>>(x: &[T], factor: T, mut out: DisjointSlice<T>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = x[i] * factor;
    }
}
