// expect: 5:23: a `%` in `ptx_asm!` text is `%N` (an operand) or `%%`
#[kernel]
pub unsafe fn k(n: u32) {
    let x: u32;
    unsafe { ptx_asm!("mov.u32 %0, %laneid;", out("=r") x); }
}
