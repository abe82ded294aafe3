// expect: 6:14: cannot assign through a `*const` pointer
#[kernel]
pub fn k(x: f32) {
    let mut y = x;
    let a = core::ptr::addr_of!(y);
    unsafe { *a = 1.0; }
}
