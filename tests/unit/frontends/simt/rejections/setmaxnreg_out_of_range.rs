// expect: 5:14: `setmaxnreg_inc::<260>`: the register count must be a multiple of 8 from 24 to 256
use cuda_device::wgmma::*;
#[kernel]
pub unsafe fn k() {
    unsafe { setmaxnreg_inc::<260>(); }
}
