// expect: 4:20: an iterator method (`.iter()`) is not supported in device code
#[kernel]
pub fn k(x: &[f32]) {
    let n: usize = x.iter().filter(|v| **v > 0.0).count();
}
