// expect: 5:34: mismatched index spaces: this DisjointSlice is indexed by `Index2D<16>`, the witness is `Index1D`
#[kernel]
pub fn k(mut out: DisjointSlice<f32, Index2D<16>>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = 1.0;
    }
}
