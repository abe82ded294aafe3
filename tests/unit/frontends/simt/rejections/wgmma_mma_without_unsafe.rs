// expect: 6:5: `wgmma_mma_m64n64k16_f32_bf16` is unsafe and requires an `unsafe` block
use cuda_device::wgmma::*;
#[kernel]
pub fn k(a: u64, b: u64) {
    let mut acc: Acc64x64 = zero_accumulator();
    wgmma_mma_m64n64k16_f32_bf16(&mut acc, a, b);
}
