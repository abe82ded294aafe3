// expect: 5:23: `add` of a pointer to a local is not supported in device code: a local lives in registers
#[kernel]
pub fn k(x: f32) {
    let a = core::ptr::addr_of!(x);
    let b = unsafe { *a.add(1) };
}
