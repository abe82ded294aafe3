// expect: 4:13: mismatched types in `+`: `f32` and `u32`
#[kernel]
pub fn k(a: f32, b: u32) {
    let c = a + b;
}
