// expect: 3:13: a function pointer type is not supported in device code
#[kernel]
pub fn k(f: fn(f32) -> f32) {
}
