// expect: 5:13: a cast to `usize` of a pointer to a local is not supported in device code
#[kernel]
pub fn k(x: f32) {
    let a = core::ptr::addr_of!(x);
    let n = a as usize;
}
