// expect: 5:10: a kernel parameter of enum type `Kind` is not supported; pass its discriminant as `u8`
#[derive(Clone, Copy)]
pub enum Kind { A, B }
#[kernel]
pub fn k(mode: Kind, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = 1.0; }
}
