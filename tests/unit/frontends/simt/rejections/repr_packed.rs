// expect: 2:1: `#[repr(packed)]` on `P`: packed structs are not supported
#[repr(packed)]
#[derive(Clone, Copy)]
pub struct P { a: u8, b: f32 }
#[kernel]
pub fn k(xs: &[P], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = xs[i].b; }
}
