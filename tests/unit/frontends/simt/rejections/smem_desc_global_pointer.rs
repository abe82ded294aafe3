// expect: 5:37: `make_smem_desc` takes a pointer into shared memory (`&raw const SMEM as *const u8`), not a global pointer
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k(data: &[u8]) {
    let d = unsafe { make_smem_desc(data.as_ptr()) };
}
