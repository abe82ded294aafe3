use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), grid = (4, 1, 1))]
pub fn k(mut out: DisjointSlice<f32>) {}
// expect: 3:1: unknown #[launch_contract] field `grid` (known: domain, block, coordinates, dynamic_shared, dynamic_shared_range, dynamic_shared_alignment, min_compute_capability, requires)
