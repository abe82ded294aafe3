// expect: 3:1: #[launch_contract] `dynamic_shared_alignment` 9223372036854775808 is out of range: the largest is 2147483648
#[kernel]
#[launch_contract(domain = 1, dynamic_shared_alignment = 9223372036854775808)]
pub fn k(mut out: DisjointSlice<f32>) {}
