// expect: 4:17: literal out of range for `u8`
#[kernel]
pub fn k(n: u8) {
    let x: u8 = 256;
}
