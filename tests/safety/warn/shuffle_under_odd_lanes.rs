use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1))]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::threadIdx_x() as usize;
    let idx = thread::index_1d();
    let i = idx.get();
    let mut v = if i < x.len() { x[i] } else { 0.0 };
    if t < 16 {
        v += warp::shuffle_down_f32(v, 1);
    }
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
// expect-warning: 10:14: the full-mask warp collective `simt.shuffle` runs under thread-dependent control flow: thread (0, 0, 0) reaches it but thread (16, 0, 0) of the same warp does not; pass the mask of the lanes that take part, or move it out of the condition
