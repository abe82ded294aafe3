// expect: 4:22: `NonZeroU32` (an integer whose zero is the niche of `Option<NonZeroU32>`) is not supported
use core::num::NonZeroU32;
#[kernel]
pub fn k(out: Option<NonZeroU32>) {
}
