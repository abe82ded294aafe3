// expect: 4:5: `let ... else` is not supported in device code
#[kernel]
pub fn k(a: Option<u32>) {
    let Some(v) = a else { return; };
}
