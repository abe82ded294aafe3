// expect: 4:8: a `let` chain is not supported in device code
#[kernel]
pub fn k(a: Option<u32>) {
    if let Some(v) = a && v > 2 {
    }
}
