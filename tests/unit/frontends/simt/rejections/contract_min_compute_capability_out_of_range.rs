// expect: 3:1: #[launch_contract] `min_compute_capability` must be (major, minor) with major 1 to 99 and minor 0 to 9, or `NN` as in sm_NN (90 for sm_90), got (2147483648, 0)
#[kernel]
#[launch_contract(domain = 1, min_compute_capability = (2147483648, 0))]
pub fn k(mut out: DisjointSlice<f32>) {}
