use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(block = (128, 1, 1))]
pub fn k(mut out: DisjointSlice<f32>) {}
// expect: 3:1: #[launch_contract(...)] must state `domain = 1`, `2` or `3`
