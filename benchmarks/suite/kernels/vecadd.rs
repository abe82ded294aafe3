// Vector add, c[i] = a[i] + b[i]: 12 bytes moved per element, no reuse (memory bound).
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub fn vecadd(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(out) = c.get_mut(idx) {
        *out = a[i] + b[i];
    }
}
