// expect: 4:13: heap allocation is not supported in device code
#[kernel]
pub fn k(n: usize) {
    let b = Box::new(1.0f32);
}
