use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn saxpy<T: Copy>(x: &[T], mut y: DisjointSlice<T>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = y.get_mut(idx) { *o = x[i]; }
}
#[kernel]
pub fn fill<const N: usize>(mut y: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    if let Some(o) = y.get_mut(idx) { *o = N as u32; }
}
