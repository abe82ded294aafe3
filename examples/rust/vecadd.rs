// vecadd: c[i] = a[i] + b[i] -- the kernel `cargo oxide new` starts from.
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn vecadd(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(c_elem) = c.get_mut(idx) {
        *c_elem = a[i] + b[i];
    }
}

fn main() {
    // Host code is skipped: the host side of oxide is Python.
}
