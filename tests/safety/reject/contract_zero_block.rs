use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (0, 1, 1))]
pub fn k(mut out: DisjointSlice<f32>) {}
// expect: 3:1: #[launch_contract] `block` must be (x, y, z) with every dimension at least 1 and at most 1024 threads in all, got (0, 1, 1)
