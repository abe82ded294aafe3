use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), dynamic_shared_range = (512, 4096), dynamic_shared_alignment = 16)]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let t = thread::threadIdx_x() as usize;
    let s = DynamicSharedArray::<f32, 16>::get();
    unsafe {
        *s.add(t) = if i < x.len() { x[i] } else { 0.0 };
    }
    thread::sync_threads();
    if let Some(o) = out.get_mut(idx) {
        *o = unsafe { *s.add(127 - t) };
    }
}
