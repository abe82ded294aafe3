// expect: 4:89: a `DisjointSlice<_, Index1D>` has no runtime layout: its space value is `()`, not `u32`
#[kernel]
pub unsafe fn k(p: *mut f32, n: usize, w: u32) {
    let g: DisjointSlice<f32> = unsafe { DisjointSlice::from_raw_parts_with_space(p, n, w) };
}
