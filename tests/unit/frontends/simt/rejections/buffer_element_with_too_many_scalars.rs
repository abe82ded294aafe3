// expect: 4:17: have 4,294,967,296 scalar fields; at most 65,536
use cuda_device::kernel;
#[kernel]
pub unsafe fn k(o: &mut [[[f32; 65536]; 65536]]) { o[0][0][0] = 1.0; }
