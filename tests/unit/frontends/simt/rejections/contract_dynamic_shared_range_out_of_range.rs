// expect: 3:1: #[launch_contract] `dynamic_shared_range` is out of range, got (0, 9223372036854775808)
#[kernel]
#[launch_contract(domain = 1, dynamic_shared_range = (0, 9223372036854775808))]
pub fn k(mut out: DisjointSlice<f32>) {}
