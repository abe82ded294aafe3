// expect: 6:25: kernel parameter `s` of type `(u8, S)` takes 17,179,869,186 bytes
use cuda_device::kernel;
#[derive(Clone, Copy)]
pub struct S { a: [[u32; 65536]; 65536], b: u8 }
#[kernel]
pub unsafe fn k(x: f32, s: (u8, S), o: &mut [u32]) { o[0] = 1; }
