// expect: 4:19: `cp_async_ca_4` takes a pointer into shared memory; this one is a global pointer
#[kernel]
pub unsafe fn k(src: &[u32], dst: &mut [u32]) {
    cp_async_ca_4(dst.as_mut_ptr(), src.as_ptr());
}
