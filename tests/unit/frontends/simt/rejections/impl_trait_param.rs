// expect: 2:13: an `impl Trait` type is not supported in device code
fn apply(f: impl Fn(f32) -> f32, v: f32) -> f32 { f(v) }
#[kernel]
pub fn k(x: f32) {
    let y = apply(x, x);
}
