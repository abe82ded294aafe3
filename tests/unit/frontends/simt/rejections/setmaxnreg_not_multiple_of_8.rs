// expect: 5:14: `setmaxnreg_dec::<41>`: the register count must be a multiple of 8 from 24 to 256
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k() {
    unsafe { setmaxnreg_dec::<41>(); }
}
