// expect: 5:5: writing through a raw pointer is unsafe and requires an `unsafe` block
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let p = out.as_mut_ptr();
    *p = 1.0;
}
