// expect: 4:12: heap allocation (`Vec`) is not supported in device code
#[kernel]
pub fn k(n: usize) {
    let v: Vec<f32> = Vec::new();
}
