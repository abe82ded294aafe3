use cuda_device::{kernel, thread, DisjointSlice, Runtime2DIndex};
#[kernel]
pub fn k(mut out: DisjointSlice<f32, Runtime2DIndex>) {
    if let Some(idx) = thread::index_2d_runtime(&out) {
        let r = idx.row();
        if let Some(o) = out.get_mut(idx) {
            *o = r as f32;
        }
    }
}
