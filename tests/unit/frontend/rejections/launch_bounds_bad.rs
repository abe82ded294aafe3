// expect: 3:1: #[launch_bounds(...)] takes integer literals: max threads[, min blocks]
#[kernel]
#[launch_bounds(N)]
pub fn k(x: f32) {
}
