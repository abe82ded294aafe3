// expect: 6:14: `wgmma_mma_m64n64k16_f32_tf32`: tf32 wgmma has k = 8, not 16; use `wgmma_mma_m64n64k8_f32_tf32`
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k(a: u64, b: u64) {
    let mut acc: Acc64x64 = zero_accumulator();
    unsafe { wgmma_mma_m64n64k16_f32_tf32(&mut acc, a, b); }
}
