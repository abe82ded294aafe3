// Warp-shuffle reduction: each warp sums its 32 values with shuffle_xor; lane 0 writes through the
// WarpIndex witness (one element per warp).
use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, WarpIndex};

#[kernel]
#[launch_contract(domain = 1)]
pub fn warp_sum(x: &[f32], mut out: DisjointSlice<f32, WarpIndex>) {
    let i = thread::index_1d().get();
    let mut v = if i < x.len() { x[i] } else { 0.0f32 };
    let mut offset = 16;
    while offset > 0 {
        v += warp::shuffle_xor_f32(v, offset);
        offset /= 2;
    }
    if let Some(w) = thread::warp_index() {
        if let Some(o) = out.get_mut(w) {
            *o = v;
        }
    }
}
