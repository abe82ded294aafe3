use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), dynamic_shared_range = (2048, 1024))]
pub fn k(mut out: DisjointSlice<f32>) {}
// expect: 3:1: #[launch_contract] `dynamic_shared_range` must be (min, max) with 0 <= min <= max, got (2048, 1024)
