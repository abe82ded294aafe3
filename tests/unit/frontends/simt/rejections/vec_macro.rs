// expect: 4:13: heap allocation (`vec!`) is not supported in device code
#[kernel]
pub fn k(n: usize) {
    let v = vec![1, 2, 3];
}
