// expect: 2:1: `#[repr(align(12))]` on `V`: the alignment must be a power of two
#[repr(C, align(12))]
#[derive(Clone, Copy)]
pub struct V([f32; 3]);
#[kernel]
pub fn k(xs: &[V], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = xs[i].0[0]; }
}
