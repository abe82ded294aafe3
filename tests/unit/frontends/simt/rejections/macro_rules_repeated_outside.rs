// expect: 3:48: `$x` is bound inside a repetition of the matcher, so it can only be used inside `$( .. )*`
macro_rules! first {
    ($($x:expr),*) => { const FIRST: u32 = 0 + $x; };
}
first!(1, 2, 3);
#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    out[0] = FIRST;
}
