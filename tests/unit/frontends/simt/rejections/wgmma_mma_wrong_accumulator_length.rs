// expect: 6:44: `wgmma_mma_m64n128k16_f32_bf16` takes `&mut acc` of a local f32 array of 64 elements per thread
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k(a: u64, b: u64) {
    let mut acc: Acc64x64 = zero_accumulator();
    unsafe { wgmma_mma_m64n128k16_f32_bf16(&mut acc, a, b); }
}
