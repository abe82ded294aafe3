// expect: 2:1: `#[repr(transparent)]` on `T2`, which has 2 fields
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct T2(f32, f32);
#[kernel]
pub fn k(xs: &[T2], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = xs[i].0; }
}
