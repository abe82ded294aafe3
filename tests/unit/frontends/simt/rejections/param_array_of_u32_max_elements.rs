// expect: 4:19: array length 4294967295 is out of range: a length is from 0 to 2147483647
use cuda_device::kernel;
#[kernel]
pub fn k(a: [u32; 4294967295]) {}
