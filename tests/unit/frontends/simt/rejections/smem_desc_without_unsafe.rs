// expect: 7:13: `make_smem_desc` is unsafe and requires an `unsafe` block
use cuda_device::shared::SharedArray;
use cuda_device::wgmma::*;
#[kernel]
pub fn k() {
    static mut SMEM: SharedArray<u8, 256, 128> = SharedArray::UNINIT;
    let d = make_smem_desc(&raw const SMEM as *const u8);
}
