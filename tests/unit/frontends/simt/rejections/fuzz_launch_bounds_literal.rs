// expect: 3:1: invalid suffix `xyz` for number literal
use cuda_device::{kernel, launch_bounds};
#[launch_bounds(0xFFFFFFFFFFFFFFFFFFxyz)]
#[kernel]
pub fn k(o: &mut [u32]) {}
