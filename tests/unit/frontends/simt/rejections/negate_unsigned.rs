// expect: 4:13: cannot negate `u32`
#[kernel]
pub fn k(a: u32) {
    let p = -a;
}
