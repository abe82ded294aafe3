use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_bounds(128)]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub fn k(mut out: DisjointSlice<f32>) {}
// expect: 4:1: #[launch_contract] block (256, 1, 1) has 256 threads, more than `#[launch_bounds(128)]` allows
