use cuda_device::{kernel, thread, DisjointSlice};
// café in Latin-1, not UTF-8
#[kernel]
pub fn copy(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = x[i]; }
}
