// expect: 5:52: a DisjointSlice is built from a pointer into global memory; this one points into shared memory
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    static mut S: SharedArray<u32, 8> = SharedArray::UNINIT;
    let d = unsafe { DisjointSlice::from_raw_parts(core::ptr::addr_of_mut!(S) as *mut u32, 8) };
}
