// expect: 4:38: takes 16 bytes of parameter space (after 4,096 bytes of earlier parameters)
use cuda_device::kernel;
#[kernel]
pub unsafe fn k(a: [(u8, u64); 256], o: &mut [u32]) { o[0] = a[0].0 as u32; }
