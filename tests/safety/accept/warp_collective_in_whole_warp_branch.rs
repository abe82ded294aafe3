use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::threadIdx_x() as usize;
    let idx = thread::index_1d();
    let i = idx.get();
    let mut v = if i < x.len() { x[i] } else { 0.0 };
    if t < 32 {
        v += warp::shuffle_xor_f32(v, 16);
    }
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
