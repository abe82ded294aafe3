// expect: 3:13: the `?` operator is not supported in device code
fn first(x: Option<u32>) -> Option<u32> {
    let v = x?;
    Some(v + 1)
}
#[kernel]
pub fn k(n: u32) {
    let r = first(Some(n));
}
