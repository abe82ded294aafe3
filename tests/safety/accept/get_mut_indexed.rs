use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    if let Some((o, idx)) = out.get_mut_indexed() {
        let i = idx.get();
        *o = if i < x.len() { x[i] * 2.0 } else { 0.0 };
    }
}
