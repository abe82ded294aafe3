use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (16, 16, 1))]
pub fn k(mut out: DisjointSlice<f32>) {}
// expect: 3:1: #[launch_contract] block (16, 16, 1) uses more dimensions than `domain = 1`: the dimensions past the domain must be 1
