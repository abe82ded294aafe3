// expect: 4:58: a runtime 2-D DisjointSlice needs its row width: `DisjointSlice::from_raw_parts_with_space(ptr, len, row_width)`
#[kernel]
pub unsafe fn k(p: *mut f32, n: usize) {
    let g: DisjointSlice<f32, Runtime2DIndex> = unsafe { DisjointSlice::from_raw_parts(p, n) };
}
