// expect: 4:13: `u128` as `f32`: the GPU has no conversion from a 128-bit integer to a float; convert through 64 bits (`x as u64 as f32`)
#[kernel]
pub fn k(x: u64) {
    let b = (x as u128) as f32;
}
