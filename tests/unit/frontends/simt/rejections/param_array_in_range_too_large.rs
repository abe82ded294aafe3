// expect: 4:10: kernel parameter `a` of type `[u32; 2147483647]` takes 8,589,934,588 bytes of parameter space
use cuda_device::kernel;
#[kernel]
pub fn k(a: [u32; 2147483647]) {}
