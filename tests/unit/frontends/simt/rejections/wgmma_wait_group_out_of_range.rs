// expect: 5:9: `wgmma_wait_group::<8>`: at most 7 groups may stay pending
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k() {
        wgmma_wait_group::<8>();
}
