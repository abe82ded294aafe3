// expect: 6:35: `unwrap_or` of an optional view takes an empty view (`RowView32::empty()`) in device code
#[kernel]
pub fn k(a: &[f32], k: u32, mut out: DisjointSlice<f32>) {
    let m = MatrixView32::new(a, k);
    let first = m.row(0, k).unwrap_or(RowView32::empty());
    let r = m.row(1, k).unwrap_or(first);
}
