// expect: 4:1: #[launch_bounds]: max threads per block must be 1 to 1024, got 99999999999
use cuda_device::{kernel, launch_bounds};
#[kernel]
#[launch_bounds(99999999999)]
pub unsafe fn k(o: &mut [u32]) {}
