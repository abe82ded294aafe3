// expect: 3:1: #[launch_contract] `dynamic_shared` is one number of bytes, got (1, 2); for a range write `dynamic_shared_range = (min, max)`
#[kernel]
#[launch_contract(domain = 1, dynamic_shared = (1, 2))]
pub fn k(mut out: DisjointSlice<f32>) {}
