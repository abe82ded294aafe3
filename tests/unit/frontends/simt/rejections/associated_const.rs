// expect: 9:17: cannot find value `Params::MISSING_SCALE` in this scope
#[derive(Clone, Copy)]
struct Params { scale: f32 }
impl Params {
    const DEFAULT_SCALE: f32 = 2.0;
}
#[kernel]
pub fn k(a: f32) {
    let s = a * Params::MISSING_SCALE;
}
