// expect: 4:17: a `ref` binding is not supported in device code
#[kernel]
pub fn k(a: Option<u32>) {
    if let Some(ref v) = a {
    }
}
