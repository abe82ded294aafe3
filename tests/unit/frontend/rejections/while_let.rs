// expect: 5:5: `while let` is not supported in device code
#[kernel]
pub fn k(n: u32) {
    let mut o = Some(n);
    while let Some(v) = o {
        o = None;
    }
}
