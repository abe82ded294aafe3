// expect: 4:13: taking `&mut` of anything but a `let mut` local (or a field of one) is not supported in device code
#[kernel]
pub fn k(a: u32) {
    let r = &mut a;
}
