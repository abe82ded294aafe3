use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), domain = 1)]
pub fn k(mut out: DisjointSlice<f32>) {}
// expect: 3:1: #[launch_contract] field `domain` is given twice
