// expect: 4:13: a range outside a `for` loop
#[kernel]
pub fn k(n: u32) {
    let r = 0..n;
}
