// expect: 3:1: #[launch_contract(...)] must state `domain = 1`, `2` or `3`
#[kernel]
#[launch_contract(block = (256, 1, 1))]
pub fn k(x: f32) {
}
