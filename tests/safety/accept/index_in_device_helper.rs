use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[device]
fn my_index() -> usize {
    thread::index_1d().get()
}
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let i = my_index();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = if i < x.len() { x[i] } else { 0.0 };
    }
}
