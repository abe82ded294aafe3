// Kernels of the launch-overhead benchmark: an empty kernel, and vecadd with four arguments.
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};

#[kernel]
#[launch_contract(domain = 1)]
pub fn empty() {}

#[kernel]
#[launch_contract(domain = 1, requires = (c.len() >= n))]
pub fn vecadd4(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>, n: u32) {
    let idx = thread::index_1d();
    let i = idx.get();
    if i < n as usize {
        if let Some(o) = c.get_mut(idx) {
            *o = a[i] + b[i];
        }
    }
}
