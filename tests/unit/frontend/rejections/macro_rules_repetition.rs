// expect: 3:6: a repetition in a `macro_rules!` matcher is not supported in device code
macro_rules! sum {
    ($($x:expr),*) => { const S: u32 = 0 $(+ $x)*; };
}
sum!(1, 2, 3);
#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    out[0] = S;
}
