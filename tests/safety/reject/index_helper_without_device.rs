use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray};
fn my_index() -> usize {
    thread::index_1d().get()
}
#[kernel]
pub fn k(out: &[f32]) {
    let _i = my_index();
}
// expect: 3:5: `thread::index_1d` is callable only in `#[kernel]` and `#[device]` functions; mark `my_index` `#[device]`
