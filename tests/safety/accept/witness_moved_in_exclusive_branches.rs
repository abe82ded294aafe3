use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, Runtime2DIndex, SharedArray};
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if i < x.len() && x[i] > 0.0 {
        if let Some(o) = out.get_mut(idx) {
            *o = x[i];
        }
    } else {
        if let Some(o) = out.get_mut(idx) {
            *o = 0.0;
        }
    }
}
