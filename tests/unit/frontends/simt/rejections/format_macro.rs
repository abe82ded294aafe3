// expect: 4:13: `format!` (core::fmt) is not supported in device code
#[kernel]
pub fn k(n: usize) {
    let s = format!("{}", n);
}
