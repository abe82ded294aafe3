// Signed scalars reaching the PTX parameter block: a generic `T` instantiated for every signed width, a
// struct, a tuple and an array passed by value, and a contracted kernel whose launches take the fast path.
use core::ops::{Add, Mul};
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};

#[derive(Clone, Copy)]
pub struct Bounds {
    lo8: i8,
    lo16: i16,
    lo32: i32,
    lo64: i64,
}

#[kernel]
pub fn clamp_fma<T: Copy + PartialOrd + Add<Output = T> + Mul<Output = T>>(
    a: &[T], b: &[T], c: &[T], lo: T, hi: T, mut out: DisjointSlice<T>,
) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let v = a[i] * b[i] + c[i];
        *o = if v < lo { lo } else if v > hi { hi } else { v };
    }
}

#[kernel]
pub fn by_value(s: Bounds, t: (i16, i64), arr: [i32; 4], mut out: DisjointSlice<i64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let k = i % 4;
        *o = s.lo8 as i64 + s.lo16 as i64 * 3 + s.lo32 as i64 * 5 + s.lo64 + t.0 as i64 * 7 + t.1
            + arr[k] as i64 * (i as i64 + 1);
    }
}

#[kernel]
#[launch_contract(domain = 1)]
pub fn shifted(x: &[i32], d: i32, e: i64, mut out: DisjointSlice<i64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = (x[i] + d) as i64 * e;
    }
}
