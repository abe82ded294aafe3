// expect: 7:85: `make_smem_desc_custom`: `swizzle_128b` must be the literal `true` or `false`
use cuda_device::shared::SharedArray;
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k(s: bool) {
    static mut SMEM: SharedArray<u8, 256, 128> = SharedArray::UNINIT;
    let d = unsafe { make_smem_desc_custom(&raw const SMEM as *const u8, 128, 1024, s) };
}
