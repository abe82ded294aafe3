// expect: 4:13: a range outside a `for` loop
#[kernel]
pub fn k(a: u32) {
    let r = 0..a;
}
