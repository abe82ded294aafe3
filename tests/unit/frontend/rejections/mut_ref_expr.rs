// expect: 5:13: taking `&mut` of a value is not supported
#[kernel]
pub fn k(a: u32) {
    let mut x = a;
    let r = &mut x;
}
