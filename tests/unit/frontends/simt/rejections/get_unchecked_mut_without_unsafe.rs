// expect: 4:13: `get_unchecked_mut` is unsafe and requires an `unsafe` block
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let r = out.get_unchecked_mut(0);
}
