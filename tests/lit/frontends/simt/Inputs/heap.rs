use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let v: Vec<f32> = Vec::new();
    if let Some(o) = out.get_mut(idx) {
        *o = x[0];
    }
}
