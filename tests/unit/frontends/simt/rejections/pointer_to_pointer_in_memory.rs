// expect: 4:22: reading a pointer from memory
#[kernel]
pub unsafe fn k(addr: u64, mut out: DisjointSlice<f32>) {
    let p = unsafe { *(addr as *const *const f32) };
}
