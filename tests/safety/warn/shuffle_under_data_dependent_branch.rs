use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let mut v = if i < x.len() { x[i] } else { 0.0 };
    if v > 0.5 {
        v += warp::shuffle_xor_f32(v, 1);
    }
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
// expect-warning: 8:14: the full-mask warp collective `simt.shuffle` runs under thread-dependent control flow: whether a thread reaches it depends on the thread; pass the mask of the lanes that take part, or move it out of the condition
