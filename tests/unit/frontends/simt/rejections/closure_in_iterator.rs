// expect: 4:18: an iterator method (`.iter()`) is not supported in device code
#[kernel]
pub fn k(x: &[f32]) {
    let s: f32 = x.iter().map(|v| v * 2.0).fold(0.0, |a, b| a + b);
}
