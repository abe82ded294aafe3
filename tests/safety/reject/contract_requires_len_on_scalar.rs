use cuda_device::{kernel, device, launch_contract, launch_bounds, thread, warp, DisjointSlice, Index2D, SharedArray, DynamicSharedArray};
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), requires = (n.len() >= 1))]
pub fn k(n: u32, mut out: DisjointSlice<f32>) {}
// expect: 3:1: `requires` relation `n.len() >= 1`: `n.len()` needs a slice or DisjointSlice parameter, `n` is `u32`
