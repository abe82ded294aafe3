// expect: 7:84: `make_smem_desc_swizzle_128b`: the stride byte offset is 1000 bytes; it must be a multiple of 16 below 262144
use cuda_device::shared::SharedArray;
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k() {
    static mut SMEM: SharedArray<u8, 256, 128> = SharedArray::UNINIT;
    let d = unsafe { make_smem_desc_swizzle_128b(&raw const SMEM as *const u8, 16, 1000) };
}
