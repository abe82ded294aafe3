// expect: 3:1: #[launch_contract] `dynamic_shared_alignment` must be a power of two from 1 to 2147483648, got 9223372036854775808
#[kernel]
#[launch_contract(domain = 1, dynamic_shared_alignment = 9223372036854775808)]
pub fn k(mut out: DisjointSlice<f32>) {}
