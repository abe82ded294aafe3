use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), requires = (out.len() >= n))]
pub fn k(n: i32, mut out: DisjointSlice<f32>) {}
// expect: 3:1: `requires` relation `out.len() >= n`: `n` is `i32`; only unsigned integer scalar parameters can appear (a negative value has no length meaning)
