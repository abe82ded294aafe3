// saxpy with a device helper: y_out[i] = a * x[i] + y[i].
use cuda_device::{device, kernel, launch_contract, thread, DisjointSlice};

#[device]
fn axpy(a: f32, x: f32, y: f32) -> f32 {
    a.mul_add(x, y)
}

#[kernel]
#[launch_contract(domain = 1)]
pub fn saxpy(a: f32, x: &[f32], y: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = axpy(a, x[i], y[i]);
    }
}
