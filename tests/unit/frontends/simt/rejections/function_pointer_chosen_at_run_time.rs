// expect: 7:9: choosing a function at run time (an indirect call through a function pointer) is not supported
fn inc(x: u32) -> u32 { x + 1 }
fn dec(x: u32) -> u32 { x - 1 }
#[kernel]
pub unsafe fn k(up: bool, out: &mut [u32]) {
    let f: fn(u32) -> u32 =
        if up { inc } else { dec };
    out[0] = f(out[0]);
}
