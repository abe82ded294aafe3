// expect: 4:17: a reference pattern is not supported in device code
#[kernel]
pub fn k(a: Option<u32>) {
    if let Some(&v) = a {
    }
}
