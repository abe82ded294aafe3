// expect: 3:1: #[launch_bounds(...)] takes integers, not floats
use cuda_device::{kernel, launch_bounds};
#[launch_bounds(4294967295f64, 2)]
#[kernel]
pub unsafe fn k(o: &mut [u32]) {}
