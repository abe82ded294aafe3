use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), requires = (x.len() % 4 == 0))]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {}
// expect: 3:1: `requires` relation `x.len() % 4 == 0`: `%` is not allowed (use integer literals, `p.len()` of slice parameters, unsigned scalar parameters, `+ - *` and one comparison)
