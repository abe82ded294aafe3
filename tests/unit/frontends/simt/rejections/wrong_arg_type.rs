// expect: 5:19: mismatched types: expected `f32`, found `u32`
fn twice(a: f32) -> f32 { a * 2.0 }
#[kernel]
pub fn k(n: u32) {
    let y = twice(n);
}
