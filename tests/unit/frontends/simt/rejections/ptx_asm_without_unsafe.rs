// expect: 5:5: `ptx_asm!` is unsafe and requires an `unsafe` block
#[kernel]
pub fn k(n: u32) {
    let x: u32;
    ptx_asm!("mov.u32 %0, 1;", out("=r") x);
}
