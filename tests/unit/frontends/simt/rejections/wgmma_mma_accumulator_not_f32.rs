// expect: 6:42: `wgmma_mma_m64n16k16_f32_f16` takes `&mut acc` of a local f32 array of 8 elements per thread
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k(a: u64, b: u64) {
    let mut acc = [0.0f64; 8];
    unsafe { wgmma_mma_m64n16k16_f32_f16(&mut acc, a, b); }
}
