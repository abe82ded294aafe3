// expect: 3:1: #[launch_contract] `dynamic_shared` is out of range, got 18446744073709551616: a launch's dynamic shared memory is from 0 to 4294967295 bytes
#[kernel]
#[launch_contract(domain = 1, dynamic_shared = 18446744073709551616)]
pub fn k(mut out: DisjointSlice<f32>) {}
