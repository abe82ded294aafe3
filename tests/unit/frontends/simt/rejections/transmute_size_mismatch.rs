// expect: 4:22: cannot transmute between types of different sizes: `u32` (32 bits) and `u64` (64 bits)
#[kernel]
pub fn k(n: u32) {
    let x = unsafe { core::mem::transmute::<u32, u64>(n) };
}
