// expect: 4:5: `println!` (core::fmt) is not supported in device code
#[kernel]
pub fn k(n: usize) {
    println!("n = {}", n);
}
