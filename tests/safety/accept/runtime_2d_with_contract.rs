use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, Runtime2DIndex, SharedArray};
#[kernel]
#[launch_contract(domain = 2, block = (32, 8, 1))]
pub fn k(x: &[f32], mut out: DisjointSlice<f32, Runtime2DIndex>) {
    if let Some(idx) = thread::index_2d_runtime(&out) {
        let r = idx.row();
        let c = idx.col();
        if let Some(o) = out.get_mut(idx) {
            *o = (r + c) as f32;
        }
    }
}
