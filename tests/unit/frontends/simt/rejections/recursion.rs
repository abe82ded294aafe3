// expect: 3:32: recursion (`fact` calls itself) is not supported in device code
fn fact(n: u32) -> u32 {
    if n == 0 { 1 } else { n * fact(n - 1) }
}
#[kernel]
pub fn k(n: u32) {
    let f = fact(n);
}
