// expect: 5:14: an iterator adapter (`.zip()`) is not supported in device code
#[kernel]
pub fn k(x: &[f32]) {
    let mut s = 0.0f32;
    for v in x.iter().zip(x.iter()) {
        s += *v;
    }
}
