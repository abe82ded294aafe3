use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d_u32();
    if let Some(o) = out.get_mut(idx) {
        *o = 2.0;
    }
}
