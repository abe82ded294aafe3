// expect: 3:10: a kernel parameter of type `Option<u32>` is not supported
#[kernel]
pub fn k(a: Option<u32>) {
}
