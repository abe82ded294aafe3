// expect: 3:1: enum `Wide`: its discriminants (-1 to 18446744073709551615) fit no integer type
#[derive(Clone, Copy)]
pub enum Wide { Low = -1, High = 18446744073709551615 }
#[kernel]
pub fn k(xs: &[Wide], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = 1.0; }
}
