// expect: 5:24: expected a compile-time integer (a literal, a const generic or a `const`)
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k(n: u32) {
    wgmma_wait_group::<n>();
}
