// expect: 5:1: `i` in the arguments of `table!` would be captured by the macro's own `i`
macro_rules! table {
    ($name:ident, $n:expr) => { const $name: u32 = { let mut i = 0; while i < $n { i += 1; } i }; };
}
table!(T, i + 1);
#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    out[0] = T;
}
