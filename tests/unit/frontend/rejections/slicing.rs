// expect: 4:16: a range outside a `for` loop (e.g. a subslice `&x[a..b]`) is not supported in device code
#[kernel]
pub fn k(x: &[f32]) {
    let s = &x[1..3];
}
