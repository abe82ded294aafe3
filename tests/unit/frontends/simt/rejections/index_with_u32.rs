// expect: 4:15: the type `[T]` cannot be indexed by `u32`: indices are `usize`
#[kernel]
pub fn k(x: &[f32], i: u32) {
    let v = x[i];
}
