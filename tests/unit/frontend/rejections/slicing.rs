// expect: 5:14: a subslice of `[f32; 4]` is not supported in device code (only of slices and of arrays in global memory)
#[kernel]
pub fn k(x: &[f32]) {
    let a = [x[0]; 4];
    let s = &a[1..3];
}
