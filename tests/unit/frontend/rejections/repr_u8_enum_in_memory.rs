// expect: 8:16: a slice of `Cell` elements: enum `Kind` is `#[repr(u8)]`
#[repr(u8)]
#[derive(Clone, Copy)]
pub enum Kind { A, B }
#[derive(Clone, Copy)]
pub struct Cell { kind: Kind, x: f32 }
#[kernel]
pub fn k(xs: &[Cell], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = xs[i].x; }
}
