// expect: 4:13: a raw pointer of `()` elements is not supported in device code yet
#[kernel]
pub unsafe fn k(p: *const u32) {
    let q = p.cast::<()>();
}
