// expect: 4:10: kernel parameters by value may take 4,096 bytes in all
use cuda_device::kernel;
#[kernel]
pub fn k(a: [u32; 4294967295]) {}
