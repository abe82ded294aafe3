// expect: 3:23: heap allocation (`String`) is not supported in device code
#[kernel]
pub fn k(n: usize, s: String) {
}
