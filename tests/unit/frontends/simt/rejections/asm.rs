// expect: 4:14: Rust `asm!` is not supported in device code
#[kernel]
pub fn k(n: usize) {
    unsafe { asm!("trap;"); }
}
