// expect: 5:1: no arm of `macro_rules! constant` matches this invocation
macro_rules! constant {
    ($name:ident = $e:expr) => { const $name: u32 = $e; };
}
constant!(X: 3);
#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    out[0] = X;
}
