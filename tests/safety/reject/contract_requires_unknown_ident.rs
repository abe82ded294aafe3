use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), requires = (y.len() >= out.len()))]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {}
// expect: 3:1: `requires` relation `y.len() >= out.len()`: no parameter named `y`
