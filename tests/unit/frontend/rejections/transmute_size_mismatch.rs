// expect: 4:22: transmute from `u32` to `u64` is not supported in device code
#[kernel]
pub fn k(n: u32) {
    let x = unsafe { core::mem::transmute::<u32, u64>(n) };
}
