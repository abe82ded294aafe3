// expect: 4:22: array length 36893488147419103232 is out of range
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let a = [0.0f32; 36893488147419103232];
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = a[0]; }
}
