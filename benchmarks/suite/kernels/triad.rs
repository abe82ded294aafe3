// STREAM triad, a[i] = b[i] + s * c[i]: 12 bytes and 2 flops per element (memory bound).
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub fn triad(b: &[f32], c: &[f32], s: f32, mut a: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(out) = a.get_mut(idx) {
        *out = b[i] + s * c[i];
    }
}
