// expect: 5:5: `setmaxnreg_dec` is unsafe and requires an `unsafe` block
use cuda_device::wgmma::*;
#[kernel]
pub fn k() {
    setmaxnreg_dec::<40>();
}
