// expect: 5:14: a subslice of `f32` is not supported in device code
#[kernel]
pub fn k(x: &[f32]) {
    let a = x[0];
    let s = &a[1..3];
}
