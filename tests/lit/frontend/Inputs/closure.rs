use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let f = |x: f32| x * 2.0;
    if let Some(o) = out.get_mut(idx) {
        *o = f(x[0]);
    }
}
