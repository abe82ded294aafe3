// expect: 4:13: `f32` as `i128`: the GPU has no conversion from a float to a 128-bit integer; convert through 64 bits (`x as i64 as i128`)
#[kernel]
pub fn k(x: f32) {
    let b = x as i128;
}
