// expect: 4:13: a closure is not supported in device code
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let f = |v: f32| v * 2.0;
}
