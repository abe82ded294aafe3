// expect: 5:13: reading a whole `[u32; 3]` through a raw pointer is not supported in device code
#[kernel]
pub unsafe fn k(p: *const u32) {
    let q = p.cast::<[u32; 3]>();
    let a = *q;
}
