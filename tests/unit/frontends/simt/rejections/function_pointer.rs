// expect: 3:10: a kernel parameter of type `fn pointer` is not supported
#[kernel]
pub fn k(f: fn(f32) -> f32) {
}
