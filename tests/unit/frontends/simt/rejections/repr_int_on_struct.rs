// expect: 2:1: `#[repr(u8)]` on struct `W` is not supported
#[repr(u8)]
#[derive(Clone, Copy)]
pub struct W(u8);
#[kernel]
pub fn k(xs: &[W], mut out: DisjointSlice<u8>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = xs[i].0; }
}
