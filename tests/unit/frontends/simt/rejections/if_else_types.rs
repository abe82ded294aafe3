// expect: 4:13: `if` and `else` have incompatible types: `f32` and `u32`
#[kernel]
pub fn k(x: f32, n: u32) {
    let v = if n > 0 { x } else { n };
}
