// expect: 3:1: expected a compile-time integer (a literal, a const generic or a `const`)
#[kernel]
#[launch_bounds(N)]
pub fn k(x: f32) {
}
