// expect: 5:1: #[launch_bounds]: min blocks per multiprocessor must be 1 to 2147483647, got 4294967296
use cuda_device::{kernel, launch_bounds};
const MIN: u32 = 4;
#[kernel]
#[launch_bounds(256, 4294967296)]
pub unsafe fn k(o: &mut [u32]) {}
