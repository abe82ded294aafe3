// expect: 5:5: `wgmma_wait_group` takes its count as a const generic: `wgmma_wait_group::<N>()`
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k(n: u32) {
    wgmma_wait_group(n);
}
