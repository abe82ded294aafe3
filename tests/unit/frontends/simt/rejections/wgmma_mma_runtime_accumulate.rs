// expect: 6:58: `accumulate` must be the literal `true` (D += A x B) or `false`
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k(a: u64, b: u64, first: bool) {
    let mut acc = [0.0f32; 4];
    unsafe { wgmma_mma_m64n8k16_f32_bf16(&mut acc, a, b, first); }
}
