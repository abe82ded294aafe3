// expect: 5:34: raw indices need `unsafe { get_unchecked_mut(i) }`
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    if let Some(o) = out.get_mut(i) {
        *o = 1.0;
    }
}
